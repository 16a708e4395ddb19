import { constants, type Stats } from "node:fs";
import { lstat, realpath, type FileHandle } from "node:fs/promises";
import { basename, dirname, join, relative, sep } from "node:path";
import { createFileInFolder } from "./create-in-folder";
import { openCheckedFile } from "./open-checked-file";
import {
  FileRefusedError,
  FileTooLargeError,
  displayPath,
  isInside,
  lexicalPath,
  outsideMessage,
  quoted,
  requireRegularFile,
  resolveExisting,
  type FilesBase,
} from "./safe-path";

export interface WriteFileInput {
  path: string;
  content: string;
}

export interface WriteFileResult {
  path: string;
  bytes: number;
  /** False when an existing file was overwritten. */
  created: boolean;
}

async function lstatOrNull(path: string): Promise<Stats | null> {
  try {
    return await lstat(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return null;
    throw error;
  }
}

/**
 * The folders, from the real root, that a new file goes in: the nearest existing ancestor must be
 * inside the files folder once its links are resolved; the folders below it are made as the file
 * is created (createFileInFolder, which follows no link on the way).
 */
async function parentFolders(base: FilesBase, absolute: string, path: string): Promise<string[]> {
  let existing = dirname(absolute);
  while (!(await lstatOrNull(existing))) existing = dirname(existing);
  const real = await realpath(existing).catch((error: unknown) => {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ENOENT" || code === "ENOTDIR")
      throw new FileRefusedError(
        `${quoted(path)} cannot be written: its folder changed while being written; try again`,
      );
    throw error;
  });
  if (!isInside(base.realRoot, real))
    throw new FileRefusedError(
      outsideMessage(base, path, "it is reached through a symbolic link that leads out of the folder"),
    );
  const folder = relative(base.realRoot, join(real, relative(existing, dirname(absolute))));
  return folder === "" ? [] : folder.split(sep);
}

/** Creates or overwrites a UTF-8 text file inside the folder, making its folders; never through a link out, never a special file. */
export async function writeTextFile(base: FilesBase, input: WriteFileInput): Promise<WriteFileResult> {
  if (!input.path)
    throw new FileRefusedError(
      'path is required: where to write in the workspace files folder, such as "notes/summary.md"',
    );
  const bytes = Buffer.from(input.content, "utf8");
  if (bytes.length > base.maxBytes) {
    throw new FileTooLargeError(
      `The content for ${quoted(input.path)} is ${bytes.length.toLocaleString("en-US")} bytes, over the limit of ${base.maxBytes.toLocaleString("en-US")} bytes (TRELLIS_FILES_MAX_BYTES)`,
    );
  }
  const absolute = lexicalPath(base, input.path);
  if (absolute === base.realRoot || /[\\/]$/.test(input.path))
    throw new FileRefusedError(`${quoted(input.path)} names a folder; give a file name to write`);

  const existing = await lstatOrNull(absolute).catch(() => null);
  if (existing) {
    // Overwriting: the same checks as reading, then the open file is checked again before it is cut.
    const resolved = await resolveExisting(base, input.path);
    requireRegularFile(resolved, "written");
    const overwrite = async (handle: FileHandle) => {
      await handle.truncate(0);
      await handle.write(bytes, 0, bytes.length, 0);
    };
    await openCheckedFile(resolved, constants.O_WRONLY, overwrite, base);
    return { path: resolved.path, bytes: bytes.length, created: false };
  }

  const folders = await parentFolders(base, absolute, input.path);
  const target = join(base.realRoot, ...folders, basename(absolute));
  // O_EXCL: if something appeared there since, it is not silently written through.
  const handle = await createFileInFolder(base.realRoot, folders, basename(absolute), input.path);
  try {
    await handle.write(bytes, 0, bytes.length, 0);
  } finally {
    await handle.close();
  }
  return { path: displayPath(base.realRoot, target), bytes: bytes.length, created: true };
}
