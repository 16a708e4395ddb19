import type { Dirent } from "node:fs";
import { lstat, readdir, realpath, stat } from "node:fs/promises";
import { join } from "node:path";
import {
  describeKind,
  displayPath,
  FileRefusedError,
  isInside,
  kindOf,
  quoted,
  resolveExisting,
  type FileKind,
  type FilesBase,
} from "./safe-path";

export interface ListDirectoryInput {
  /** A folder inside the files folder; default: the files folder itself. */
  path?: string;
  /** Also list what sub-folders hold (not following links). */
  recursive?: boolean;
  maxEntries?: number;
}

export interface DirectoryEntry {
  path: string;
  type: FileKind;
  /** Bytes, for files. */
  size?: number;
  /** A symbolic link: `inside` when it leads to something in the folder (`type` is then that thing's), else why it cannot be used. */
  link?: "inside" | "outside" | "broken";
}

export interface ListDirectoryResult {
  path: string;
  entries: DirectoryEntry[];
  /** More entries exist than `maxEntries` allowed. */
  truncated: boolean;
}

export const DEFAULT_LIST_ENTRIES = 200;
export const MAX_LIST_ENTRIES = 2_000;

/** What a link leads to, judged as every tool judges it: only targets inside the folder count. */
async function describeLink(
  base: FilesBase,
  absolute: string,
): Promise<Pick<DirectoryEntry, "type" | "size" | "link">> {
  let target: string;
  try {
    target = await realpath(absolute);
  } catch {
    return { type: "symlink", link: "broken" };
  }
  if (!isInside(base.realRoot, target)) return { type: "symlink", link: "outside" };
  const stats = await stat(target);
  return { type: kindOf(stats), ...(stats.isFile() ? { size: stats.size } : {}), link: "inside" };
}

async function describeEntry(base: FilesBase, folder: string, dirent: Dirent): Promise<DirectoryEntry> {
  const absolute = join(folder, dirent.name);
  const path = displayPath(base.realRoot, absolute);
  if (dirent.isSymbolicLink()) return { path, ...(await describeLink(base, absolute)) };
  const stats = await lstat(absolute);
  return { path, type: kindOf(stats), ...(stats.isFile() ? { size: stats.size } : {}) };
}

/** Lists a folder breadth first, in name order, stopping at `maxEntries`; links are described, never descended into. */
export async function listDirectory(
  base: FilesBase,
  input: ListDirectoryInput,
  signal?: AbortSignal,
): Promise<ListDirectoryResult> {
  const resolved = await resolveExisting(base, input.path ?? ".");
  if (!resolved.stats.isDirectory()) {
    throw new FileRefusedError(
      `${quoted(resolved.path)} is ${describeKind(kindOf(resolved.stats))}, not a directory; use file_info or file_read`,
    );
  }
  const maxEntries = Math.min(Math.max(1, Math.floor(input.maxEntries ?? DEFAULT_LIST_ENTRIES)), MAX_LIST_ENTRIES);
  const entries: DirectoryEntry[] = [];
  const queue = [resolved.real];
  while (queue.length > 0) {
    signal?.throwIfAborted();
    const folder = queue.shift()!;
    const dirents = (await readdir(folder, { withFileTypes: true })).sort((a, b) => a.name.localeCompare(b.name));
    for (const dirent of dirents) {
      if (entries.length >= maxEntries) return { path: resolved.path, entries, truncated: true };
      const entry = await describeEntry(base, folder, dirent);
      entries.push(entry);
      if (input.recursive && dirent.isDirectory()) queue.push(join(folder, dirent.name));
    }
  }
  return { path: resolved.path, entries, truncated: false };
}
