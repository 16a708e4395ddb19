import { constants, existsSync } from "node:fs";
import { mkdir, open, realpath, type FileHandle } from "node:fs/promises";
import { join } from "node:path";
import { FileRefusedError, isInside, quoted } from "./safe-path";

/**
 * Creates a new file at `folders/name` under the files folder's real root so that no symbolic
 * link can redirect it, even one another writer swaps in for a folder while the write runs.
 *
 * Node has no openat(2), so the walk goes through /proc/self/fd: `/proc/self/fd/<n>/<name>` is
 * resolved from the open directory itself, not by re-reading its path. Each folder is opened with
 * O_DIRECTORY | O_NOFOLLOW relative to the one before (a link in its place fails with ELOOP or
 * ENOTDIR), made there if missing, and the file is created in the last one with
 * O_CREAT | O_EXCL | O_NOFOLLOW. A folder swapped for a link after it was opened no longer matters:
 * the walk holds the folder, not its name.
 *
 * Without /proc (not Linux), the file is created by path and then checked: the real path of the
 * folder that holds it must be inside the root and hold that very file (same device and inode),
 * else the write is refused before a byte is written. That is weaker: an empty file may be left
 * where a swapped link pointed (removing it by path could remove someone else's file instead).
 */
export async function createFileInFolder(
  realRoot: string,
  folders: readonly string[],
  name: string,
  shownPath: string,
): Promise<FileHandle> {
  return hasProcFd()
    ? createThroughDescriptors(realRoot, folders, name, shownPath)
    : createThenVerify(realRoot, folders, name, shownPath);
}

let procFd: boolean | undefined;
const hasProcFd = () => (procFd ??= process.platform === "linux" && existsSync("/proc/self/fd"));

const FOLDER_FLAGS = constants.O_RDONLY | constants.O_DIRECTORY | constants.O_NOFOLLOW;
const NEW_FILE_FLAGS = constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW;

const errorCode = (error: unknown) => (error as NodeJS.ErrnoException).code;

function swapped(shownPath: string): FileRefusedError {
  return new FileRefusedError(
    `${quoted(shownPath)} cannot be written: a part of its folder is a symbolic link or a file, or was replaced while being written`,
  );
}

function created(shownPath: string, error: unknown): never {
  if (errorCode(error) === "EEXIST")
    throw new FileRefusedError(`${quoted(shownPath)} appeared while being written; try again`);
  // ENOENT: the folder held open was removed meanwhile.
  if (errorCode(error) === "ELOOP" || errorCode(error) === "ENOENT") throw swapped(shownPath);
  throw error;
}

async function openFolderIn(parent: FileHandle, name: string, shownPath: string): Promise<FileHandle> {
  const path = `/proc/self/fd/${parent.fd}/${name}`;
  try {
    return await open(path, FOLDER_FLAGS);
  } catch (error) {
    if (errorCode(error) !== "ENOENT") {
      if (errorCode(error) === "ELOOP" || errorCode(error) === "ENOTDIR") throw swapped(shownPath);
      throw error;
    }
  }
  // mkdir does not follow a link in the last place: one there makes it fail with EEXIST, and the open after refuses it.
  await mkdir(path, 0o755).catch((error: unknown) => {
    if (errorCode(error) === "ENOENT") throw swapped(shownPath);
    if (errorCode(error) !== "EEXIST") throw error;
  });
  try {
    return await open(path, FOLDER_FLAGS);
  } catch (error) {
    if (errorCode(error) === "ELOOP" || errorCode(error) === "ENOTDIR" || errorCode(error) === "ENOENT")
      throw swapped(shownPath);
    throw error;
  }
}

async function createThroughDescriptors(
  realRoot: string,
  folders: readonly string[],
  name: string,
  shownPath: string,
): Promise<FileHandle> {
  let folder = await open(realRoot, FOLDER_FLAGS);
  try {
    for (const part of folders) {
      const next = await openFolderIn(folder, part, shownPath);
      await folder.close();
      folder = next;
    }
    return await open(`/proc/self/fd/${folder.fd}/${name}`, NEW_FILE_FLAGS, 0o644).catch((error: unknown) =>
      created(shownPath, error),
    );
  } finally {
    await folder.close();
  }
}

async function createThenVerify(
  realRoot: string,
  folders: readonly string[],
  name: string,
  shownPath: string,
): Promise<FileHandle> {
  const folderPath = join(realRoot, ...folders);
  try {
    await mkdir(folderPath, { recursive: true });
  } catch (error) {
    if (errorCode(error) === "ENOTDIR" || errorCode(error) === "EEXIST") throw swapped(shownPath);
    throw error;
  }
  const target = join(folderPath, name);
  const handle = await open(target, NEW_FILE_FLAGS, 0o644).catch((error: unknown) => created(shownPath, error));
  try {
    const opened = await handle.stat();
    const realFolder = await realpath(folderPath);
    const there = await open(join(realFolder, name), constants.O_RDONLY | constants.O_NOFOLLOW).then(async (check) => {
      try {
        return await check.stat();
      } finally {
        await check.close();
      }
    });
    if (isInside(realRoot, realFolder) && there.ino === opened.ino && there.dev === opened.dev) return handle;
  } catch {
    // Checked below as a refusal: whatever moved, the file is not known to be inside.
  }
  await handle.close();
  throw swapped(shownPath);
}
