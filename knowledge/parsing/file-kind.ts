import type { FileKind } from "../types";
import { UnsupportedFileError } from "../errors";

const KIND_BY_EXTENSION: Record<string, FileKind> = {
  txt: "txt",
  text: "txt",
  md: "md",
  markdown: "md",
  html: "html",
  htm: "html",
  pdf: "pdf",
  csv: "csv",
  json: "json",
};

export const SUPPORTED_EXTENSIONS = Object.keys(KIND_BY_EXTENSION).map((extension) => `.${extension}`);

/** Signatures of binary formats that must never pass as text, however the file is named. */
const BINARY_SIGNATURES: Array<{ name: string; bytes: number[] }> = [
  { name: "PDF", bytes: [0x25, 0x50, 0x44, 0x46, 0x2d] },
  { name: "ZIP (or Office document)", bytes: [0x50, 0x4b, 0x03, 0x04] },
  { name: "PNG image", bytes: [0x89, 0x50, 0x4e, 0x47] },
  { name: "JPEG image", bytes: [0xff, 0xd8, 0xff] },
  { name: "GIF image", bytes: [0x47, 0x49, 0x46, 0x38] },
  { name: "gzip archive", bytes: [0x1f, 0x8b] },
  { name: "ELF executable", bytes: [0x7f, 0x45, 0x4c, 0x46] },
  { name: "Windows executable", bytes: [0x4d, 0x5a] },
];

function startsWith(bytes: Uint8Array, signature: number[]): boolean {
  return signature.every((value, index) => bytes[index] === value);
}

function extensionOf(name: string): string {
  const dot = name.lastIndexOf(".");
  return dot < 0 ? "" : name.slice(dot + 1).toLowerCase();
}

/** The PDF header may follow a little junk, but must sit in the first kilobyte. */
function hasPdfHeader(bytes: Uint8Array): boolean {
  const head = Buffer.from(bytes.subarray(0, 1024)).toString("latin1");
  return head.includes("%PDF-");
}

const strictUtf8 = new TextDecoder("utf-8", { fatal: true });

/**
 * Decides what a file is from its extension AND its bytes: a `.txt` holding a PNG, or a `.pdf`
 * that is not a PDF, is refused with a message naming the mismatch.
 */
export function detectFileKind(name: string, bytes: Uint8Array): FileKind {
  const extension = extensionOf(name);
  const kind = KIND_BY_EXTENSION[extension];
  if (!kind) {
    throw new UnsupportedFileError(
      `"${name}" has an unsupported type${extension ? ` (.${extension})` : " (no extension)"}; supported: ${SUPPORTED_EXTENSIONS.join(", ")}`,
    );
  }
  if (bytes.length === 0) throw new UnsupportedFileError(`"${name}" is empty`);
  if (kind === "pdf") {
    if (!hasPdfHeader(bytes)) throw new UnsupportedFileError(`"${name}" is named .pdf but its content is not a PDF`);
    return kind;
  }
  const binary = BINARY_SIGNATURES.find((signature) => startsWith(bytes, signature.bytes));
  if (binary) throw new UnsupportedFileError(`"${name}" is named .${extension} but its content is a ${binary.name}`);
  if (bytes.includes(0)) throw new UnsupportedFileError(`"${name}" is named .${extension} but contains binary data`);
  try {
    strictUtf8.decode(bytes);
  } catch {
    throw new UnsupportedFileError(`"${name}" is not valid UTF-8 text`);
  }
  return kind;
}
