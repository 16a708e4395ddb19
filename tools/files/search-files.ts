import { constants } from "node:fs";
import { readdir } from "node:fs/promises";
import { join, matchesGlob } from "node:path";
import { decodeText, openCheckedFile, readAtMost } from "./open-checked-file";
import {
  describeKind,
  displayPath,
  FileRefusedError,
  kindOf,
  quoted,
  resolveExisting,
  type FilesBase,
} from "./safe-path";

export interface SearchFilesInput {
  /** A glob over paths (`**\/*.md`, `notes/*.txt`); one without `/` matches file names at any depth (`*.md`). */
  pattern?: string;
  /** Text to find in file contents, ignoring case. */
  text?: string;
  /** The folder to search in; default: the whole files folder. */
  path?: string;
  maxResults?: number;
}

export interface SearchMatch {
  path: string;
  size: number;
  /** With `text`: the line (from 1) and the line itself, cut at 200 characters. */
  line?: number;
  excerpt?: string;
}

export interface SearchFilesResult {
  matches: SearchMatch[];
  /** More matches exist than `maxResults` allowed, or the walk stopped after 10,000 files. */
  truncated: boolean;
  /** Files whose name matched (and whose content was searched, with `text`). */
  filesSearched: number;
  /** Files whose content was not searched: over the size limit, or not text. */
  skipped: { tooLarge: number; notText: number };
}

export const DEFAULT_SEARCH_RESULTS = 100;
export const MAX_SEARCH_RESULTS = 200;
/** Files visited at most in one search, so a huge tree cannot keep a run busy. */
const MAX_FILES_VISITED = 10_000;
const EXCERPT_CHARS = 200;

function nameMatcher(pattern: string | undefined): (path: string) => boolean {
  if (!pattern) return () => true;
  // A pattern without "/" is about names, as `find -name` is.
  const glob = pattern.includes("/") ? pattern : `**/${pattern}`;
  return (path) => matchesGlob(path, glob);
}

/** Regular files under a folder, in name order, not following links (a link out of the folder must not widen the search). */
async function* walkFiles(root: string, signal?: AbortSignal): AsyncGenerator<{ absolute: string }> {
  const queue = [root];
  while (queue.length > 0) {
    signal?.throwIfAborted();
    const folder = queue.shift()!;
    const dirents = (await readdir(folder, { withFileTypes: true })).sort((a, b) => a.name.localeCompare(b.name));
    for (const dirent of dirents) {
      const absolute = join(folder, dirent.name);
      if (dirent.isDirectory()) queue.push(absolute);
      else if (dirent.isFile()) yield { absolute };
    }
  }
}

/** Finds files by name and, with `text`, lines holding it; links and special files are passed over. */
export async function searchFiles(
  base: FilesBase,
  input: SearchFilesInput,
  signal?: AbortSignal,
): Promise<SearchFilesResult> {
  if (!input.pattern && !input.text)
    throw new FileRefusedError('give a "pattern" (file names, such as "*.md"), a "text" to find in files, or both');
  const start = await resolveExisting(base, input.path ?? ".");
  if (!start.stats.isDirectory())
    throw new FileRefusedError(
      `${quoted(start.path)} is ${describeKind(kindOf(start.stats))}, not a directory to search in`,
    );
  const maxResults = Math.min(Math.max(1, Math.floor(input.maxResults ?? DEFAULT_SEARCH_RESULTS)), MAX_SEARCH_RESULTS);
  const matchesName = nameMatcher(input.pattern);
  const needle = input.text?.toLowerCase();
  const result: SearchFilesResult = {
    matches: [],
    truncated: false,
    filesSearched: 0,
    skipped: { tooLarge: 0, notText: 0 },
  };

  let visited = 0;
  for await (const { absolute } of walkFiles(start.real, signal)) {
    if (++visited > MAX_FILES_VISITED) return { ...result, truncated: true };
    const path = displayPath(base.realRoot, absolute);
    if (!matchesName(path)) continue;
    result.filesSearched++;
    const resolved = await resolveExisting(base, path);
    if (!needle) {
      if (result.matches.length >= maxResults) return { ...result, truncated: true };
      result.matches.push({ path, size: resolved.stats.size });
      continue;
    }
    if (resolved.stats.size > base.maxBytes) {
      result.skipped.tooLarge++;
      continue;
    }
    let text: string;
    try {
      const bytes = await openCheckedFile(
        resolved,
        constants.O_RDONLY,
        (handle) => readAtMost(handle, resolved.stats.size),
        base,
      );
      text = decodeText(path, bytes);
    } catch (error) {
      if (!(error instanceof FileRefusedError)) throw error;
      result.skipped.notText++;
      continue;
    }
    const lines = text.split("\n");
    for (let index = 0; index < lines.length; index++) {
      if (!lines[index]!.toLowerCase().includes(needle)) continue;
      if (result.matches.length >= maxResults) return { ...result, truncated: true };
      result.matches.push({
        path,
        size: resolved.stats.size,
        line: index + 1,
        excerpt: lines[index]!.trim().slice(0, EXCERPT_CHARS),
      });
    }
  }
  return result;
}
