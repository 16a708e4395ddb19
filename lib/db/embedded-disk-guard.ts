import { diskSpaceOfSync, insufficientStorageMessage } from "../system/disk-space";

/**
 * Keeps large writes from filling the embedded database's disk. PostgreSQL inside PGlite does not
 * come back from a write that fails for lack of space: the session is left half-cleaned ("cannot
 * drop active portal" on every later query), or PGlite spins in WebAssembly and its thread stops
 * answering. So a message big enough to matter is checked against the disk before PGlite sees it,
 * and refused with PostgreSQL's own disk_full error (SQLSTATE 53100) when it would eat into the
 * reserve; lib/ answers that with 507 `insufficient_storage`.
 */
export interface DiskGuard {
  /** The PGlite files' folder (DATA_DIR/pglite). */
  folder: string;
  /** Space every write leaves free (diskReserveBytes()). */
  reserveBytes: number;
}

/** Messages smaller than this (most queries, run events) pass unchecked: one statfs per message would cost more than it saves. */
export const LARGE_MESSAGE_BYTES = 64 * 1024;
/**
 * A row written costs about its size three times over before a checkpoint frees anything: the
 * table (TOAST) page, its WAL record and the full-page images after it.
 */
const WRITE_AMPLIFICATION = 3;

const QUERY = 0x51; // 'Q'
const PARSE = 0x50; // 'P'
const BIND = 0x42; // 'B'
const ERROR_RESPONSE = 0x45; // 'E'

/** The refusal's text when `message` would leave less than the reserve free, else undefined. */
export function refusalOf(message: Uint8Array, guard: DiskGuard): string | undefined {
  if (message.length < LARGE_MESSAGE_BYTES) return undefined;
  const type = message[0];
  if (type !== QUERY && type !== PARSE && type !== BIND) return undefined;
  const { freeBytes } = diskSpaceOfSync(guard.folder);
  const neededBytes = message.length * WRITE_AMPLIFICATION + guard.reserveBytes;
  if (freeBytes >= neededBytes) return undefined;
  return insufficientStorageMessage({
    what: "this write to the embedded database",
    folder: guard.folder,
    freeBytes,
    neededBytes,
    reserveBytes: guard.reserveBytes,
  });
}

/**
 * What PGlite runs instead of a refused message: a statement that fails while it is analysed,
 * before it can write anything, so the session's protocol state is exactly that of a failed
 * message (an implicit transaction aborted, the rest of an extended-protocol batch skipped until
 * Sync). A simple query stays a simple query, so its ReadyForQuery still comes.
 */
export function substituteOf(message: Uint8Array): Uint8Array {
  const sql = "SELECT trellis_disk_full_refusal";
  if (message[0] === QUERY) return frame(QUERY, [cString(sql)]);
  // Parse: unnamed statement, the SQL, no parameter types.
  return frame(PARSE, [cString(""), cString(sql), Buffer.from([0, 0])]);
}

/** A PostgreSQL ErrorResponse: severity ERROR, `code`, `message`. */
export function errorResponseOf(code: string, message: string): Uint8Array {
  const field = (tag: string, value: string) => Buffer.concat([Buffer.from(tag), cString(value)]);
  return frame(ERROR_RESPONSE, [
    field("S", "ERROR"),
    field("V", "ERROR"),
    field("C", code),
    field("M", message),
    Buffer.from([0]),
  ]);
}

/** `data` (whole backend messages) with every ErrorResponse replaced by `replacement`. */
export function replaceErrors(data: Uint8Array, replacement: Uint8Array): Uint8Array {
  const parts: Uint8Array[] = [];
  let offset = 0;
  while (offset + 5 <= data.length) {
    const length = Buffer.from(data.buffer, data.byteOffset + offset + 1, 4).readInt32BE(0);
    const end = offset + 1 + length;
    parts.push(data[offset] === ERROR_RESPONSE ? replacement : data.subarray(offset, end));
    offset = end;
  }
  return Buffer.concat(parts);
}

/** Whether backend messages in `data` hold an ErrorResponse with SQLSTATE 53100 (disk_full). */
export function reportsDiskFull(data: Uint8Array): boolean {
  return data.includes(ERROR_RESPONSE) && Buffer.from(data.buffer, data.byteOffset, data.length).includes("C53100\0");
}

function cString(text: string): Buffer {
  return Buffer.from(`${text}\0`);
}

function frame(type: number, body: Uint8Array[]): Uint8Array {
  const content = Buffer.concat(body);
  const message = Buffer.alloc(5 + content.length);
  message[0] = type;
  message.writeInt32BE(4 + content.length, 1);
  content.copy(message, 5);
  return message;
}
