import { constants } from "node:fs";
import { open, type FileHandle } from "node:fs/promises";
import {
  FileRefusedError,
  quoted,
  requireRegularFile,
  requireWithinLimit,
  type FilesBase,
  type ResolvedPath,
} from "./safe-path";

/**
 * Opens a file whose path was resolved and checked, and checks the open file again: the path is
 * opened without following a link (O_NOFOLLOW) and without waiting (O_NONBLOCK, so a FIFO swapped
 * in cannot hang the run), and must still be the same regular file within the size limit.
 */
export async function openCheckedFile<T>(
  resolved: Pick<ResolvedPath, "path" | "real" | "stats">,
  flags: number,
  work: (handle: FileHandle) => Promise<T>,
  base: FilesBase,
): Promise<T> {
  let handle: FileHandle;
  try {
    handle = await open(resolved.real, flags | constants.O_NOFOLLOW | constants.O_NONBLOCK);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ELOOP")
      throw new FileRefusedError(`${quoted(resolved.path)} changed into a symbolic link while being opened`);
    if (code === "EACCES" || code === "EPERM")
      throw new FileRefusedError(`${quoted(resolved.path)} cannot be opened: permission denied`);
    throw error;
  }
  try {
    const opened = await handle.stat();
    requireRegularFile({ path: resolved.path, stats: opened }, "opened");
    if (opened.ino !== resolved.stats.ino || opened.dev !== resolved.stats.dev) {
      throw new FileRefusedError(`${quoted(resolved.path)} was replaced while being opened; try again`);
    }
    requireWithinLimit(base, resolved.path, opened.size);
    return await work(handle);
  } finally {
    await handle.close();
  }
}

const strictUtf8 = new TextDecoder("utf-8", { fatal: true });

/** UTF-8 text, or a refusal: a NUL byte or an invalid sequence means the file is binary. */
export function decodeText(path: string, bytes: Uint8Array): string {
  const binary = () =>
    new FileRefusedError(`${quoted(path)} is not a text file (it holds binary data); file tools read UTF-8 text only`);
  if (bytes.includes(0)) throw binary();
  try {
    return strictUtf8.decode(bytes).replace(/^\uFEFF/, "");
  } catch {
    throw binary();
  }
}

/** Reads at most `limit` bytes: a file that grew after its size was checked cannot make a run read more. */
export async function readAtMost(handle: FileHandle, limit: number): Promise<Buffer> {
  const buffer = Buffer.alloc(limit);
  let filled = 0;
  while (filled < buffer.length) {
    const { bytesRead } = await handle.read(buffer, filled, buffer.length - filled, filled);
    if (bytesRead === 0) break;
    filled += bytesRead;
  }
  return buffer.subarray(0, filled);
}
