import type { Stats } from "node:fs";
import { lstat, realpath, stat } from "node:fs/promises";
import { isAbsolute, join, normalize, relative, sep } from "node:path";
import { TrellisError } from "@/core";

/** A workspace's files folder as the tools use it. */
export interface FilesBase {
  /** The folder's real path (symbolic links resolved), absolute. Never shown to the model. */
  realRoot: string;
  /** How messages name the folder, e.g. `TRELLIS_FILES_ROOT/<workspace id>`. */
  label: string;
  maxBytes: number;
}

/** A path a file tool will not touch; the model gets the message as the tool's error and may try another. */
export class FileRefusedError extends TrellisError {
  constructor(message: string) {
    super("file_refused", message);
  }
}

export class FileNotFoundError extends TrellisError {
  constructor(message: string) {
    super("not_found", message);
  }
}

export class FileTooLargeError extends TrellisError {
  constructor(message: string) {
    super("too_large", message);
  }
}

export type FileKind =
  "file" | "directory" | "symlink" | "fifo" | "socket" | "character device" | "block device" | "other";

export function kindOf(stats: Stats): FileKind {
  if (stats.isFile()) return "file";
  if (stats.isDirectory()) return "directory";
  if (stats.isSymbolicLink()) return "symlink";
  if (stats.isFIFO()) return "fifo";
  if (stats.isSocket()) return "socket";
  if (stats.isCharacterDevice()) return "character device";
  if (stats.isBlockDevice()) return "block device";
  return "other";
}

const KIND_NAMES: Record<FileKind, string> = {
  file: "a regular file",
  directory: "a directory",
  symlink: "a symbolic link",
  fifo: "a FIFO (named pipe)",
  socket: "a socket",
  "character device": "a character device",
  "block device": "a block device",
  other: "a special file",
};

export const describeKind = (kind: FileKind) => KIND_NAMES[kind];

/** A path relative to the folder, with `/` separators, as the model wrote and sees paths ("." for the folder itself). */
export function displayPath(realRoot: string, absolute: string): string {
  const inside = relative(realRoot, absolute);
  return inside === "" ? "." : inside.split(sep).join("/");
}

export function isInside(realRoot: string, candidate: string): boolean {
  const inside = relative(realRoot, candidate);
  return inside === "" || (inside !== ".." && !inside.startsWith(`..${sep}`) && !isAbsolute(inside));
}

/** `"x"` quoted for messages, cut short so a huge argument cannot flood the model's context. */
export function quoted(path: string): string {
  return JSON.stringify(path.length > 200 ? `${path.slice(0, 200)}…` : path);
}

export function outsideMessage(base: FilesBase, path: string, why: string): string {
  return `${quoted(path)} is outside the workspace files folder (${base.label}): ${why}`;
}

/**
 * The path as written, checked as text: relative, no NUL, and not climbing out with `..`.
 * Percent signs and backslashes are ordinary characters here (nothing decodes them), so
 * `%2e%2e/x` names a file called `%2e%2e` inside the folder.
 */
export function lexicalPath(base: FilesBase, path: string): string {
  if (path.includes("\0"))
    throw new FileRefusedError(`${quoted(path)} contains a NUL character, which no file name may hold`);
  if (isAbsolute(path) || /^[A-Za-z]:[\\/]/.test(path) || path.startsWith("\\\\") || path.startsWith("~")) {
    throw new FileRefusedError(
      outsideMessage(base, path, `paths are relative to that folder, such as "notes/todo.md"`),
    );
  }
  const absolute = join(base.realRoot, normalize(path || "."));
  if (!isInside(base.realRoot, absolute))
    throw new FileRefusedError(outsideMessage(base, path, `".." may not climb out of it`));
  return absolute;
}

export interface ResolvedPath {
  /** The path as the model sees it. */
  path: string;
  /** The target's real path (links resolved), inside the folder. */
  real: string;
  /** Metadata of the target (a link's target, not the link). */
  stats: Stats;
  /** Whether the path itself is a symbolic link (to somewhere inside the folder). */
  link: boolean;
}

/**
 * An existing path inside the folder, with every symbolic link on the way resolved: a link whose
 * target is outside the folder is refused, naming the folder, as `..` is.
 */
export async function resolveExisting(base: FilesBase, path: string): Promise<ResolvedPath> {
  const absolute = lexicalPath(base, path);
  let own: Stats;
  try {
    own = await lstat(absolute);
  } catch (error) {
    throw notFound(base, path, error);
  }
  let real: string;
  try {
    real = await realpath(absolute);
  } catch (error) {
    if (own.isSymbolicLink())
      throw new FileNotFoundError(`${quoted(path)} is a symbolic link to something that does not exist`);
    throw notFound(base, path, error);
  }
  if (!isInside(base.realRoot, real))
    throw new FileRefusedError(
      outsideMessage(base, path, "it is reached through a symbolic link that leads out of the folder"),
    );
  const stats = own.isSymbolicLink() ? await stat(real) : own;
  return { path: displayPath(base.realRoot, absolute), real, stats, link: own.isSymbolicLink() };
}

function notFound(base: FilesBase, path: string, error: unknown): Error {
  const code = (error as NodeJS.ErrnoException).code;
  if (code === "ENOENT" || code === "ENOTDIR")
    return new FileNotFoundError(`${quoted(path)} does not exist in the workspace files folder (${base.label})`);
  if (code === "EACCES" || code === "EPERM")
    return new FileRefusedError(`${quoted(path)} cannot be read: permission denied`);
  return error instanceof Error ? error : new Error(String(error));
}

/** Refuses anything but a regular file (a directory, a FIFO, a socket, a device) for reading or writing. */
export function requireRegularFile(resolved: Pick<ResolvedPath, "path" | "stats">, verb: string): void {
  const kind = kindOf(resolved.stats);
  if (kind === "file") return;
  const hint = kind === "directory" ? "; use file_list to see what it holds" : "; file tools only touch regular files";
  throw new FileRefusedError(
    `${quoted(resolved.path)} is ${describeKind(kind)}, not a regular file, so it cannot be ${verb}${hint}`,
  );
}

export function requireWithinLimit(base: FilesBase, path: string, size: number): void {
  if (size <= base.maxBytes) return;
  throw new FileTooLargeError(
    `${quoted(path)} is ${size.toLocaleString("en-US")} bytes, over the limit of ${base.maxBytes.toLocaleString("en-US")} bytes (TRELLIS_FILES_MAX_BYTES)`,
  );
}
