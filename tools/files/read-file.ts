import { constants } from "node:fs";
import {
  FileRefusedError,
  quoted,
  requireRegularFile,
  requireWithinLimit,
  resolveExisting,
  type FilesBase,
} from "./safe-path";
import { decodeText, openCheckedFile, readAtMost } from "./open-checked-file";

export interface ReadFileInput {
  path: string;
  /** First line to return, counting from 1. */
  startLine?: number;
  /** Last line to return (inclusive). */
  endLine?: number;
  /** At most this many bytes of content come back; the rest is cut with `truncated: true`. */
  maxBytes?: number;
}

export interface ReadFileResult {
  path: string;
  /** The whole file's size in bytes. */
  size: number;
  content: string;
  /** Lines of the whole file, and which of them `content` holds. */
  totalLines: number;
  startLine: number;
  endLine: number;
  /** Set when `content` was cut at `maxBytes`: ask again with a later `startLine`. */
  truncated: boolean;
}

export const DEFAULT_READ_BYTES = 65_536;

/** Reads a UTF-8 text file of the folder, whole or a line range, refusing binaries, specials and files over the limit. */
export async function readTextFile(base: FilesBase, input: ReadFileInput): Promise<ReadFileResult> {
  if (!input.path)
    throw new FileRefusedError('path is required: a file of the workspace files folder, such as "notes/todo.md"');
  const resolved = await resolveExisting(base, input.path);
  requireRegularFile(resolved, "read");
  requireWithinLimit(base, resolved.path, resolved.stats.size);
  const bytes = await openCheckedFile(
    resolved,
    constants.O_RDONLY,
    (handle) => readAtMost(handle, Math.min(resolved.stats.size, base.maxBytes)),
    base,
  );
  const text = decodeText(resolved.path, bytes);

  const lines = text.split("\n");
  const totalLines = text === "" ? 0 : text.endsWith("\n") ? lines.length - 1 : lines.length;
  const startLine = Math.max(1, Math.floor(input.startLine ?? 1));
  const endLine = Math.min(totalLines, Math.floor(input.endLine ?? totalLines));
  if (input.endLine !== undefined && endLine < startLine && totalLines > 0) {
    throw new FileRefusedError(
      `endLine (${input.endLine}) comes before startLine (${startLine}) in ${quoted(resolved.path)}`,
    );
  }
  const ranged = startLine === 1 && endLine === totalLines ? text : lines.slice(startLine - 1, endLine).join("\n");

  const limit = Math.min(Math.max(1, Math.floor(input.maxBytes ?? DEFAULT_READ_BYTES)), base.maxBytes);
  const encoded = Buffer.from(ranged, "utf8");
  const truncated = encoded.length > limit;
  // Cutting mid-character leaves a replacement character; drop it rather than show a broken one.
  const content = truncated
    ? encoded
        .subarray(0, limit)
        .toString("utf8")
        .replace(/\uFFFD$/, "")
    : ranged;
  return {
    path: resolved.path,
    size: resolved.stats.size,
    content,
    totalLines,
    startLine,
    endLine: Math.max(endLine, 0),
    truncated,
  };
}
