import { FileRefusedError, kindOf, resolveExisting, type FileKind, type FilesBase } from "./safe-path";

export interface FileInfoResult {
  path: string;
  type: FileKind;
  size: number;
  modifiedAt: string;
  createdAt: string;
  /** The path is a symbolic link to this entry (inside the folder). */
  link?: true;
  /** Whether file_read would read it: a regular file within the size limit. */
  readable: boolean;
}

/** Metadata of a path inside the folder; a link out of it is refused like any path out of it. */
export async function fileInfo(base: FilesBase, path: string): Promise<FileInfoResult> {
  if (!path)
    throw new FileRefusedError(
      'path is required: a file or folder of the workspace files folder, such as "notes" or "notes/todo.md"',
    );
  const resolved = await resolveExisting(base, path);
  const { stats } = resolved;
  return {
    path: resolved.path,
    type: kindOf(stats),
    size: stats.size,
    modifiedAt: stats.mtime.toISOString(),
    createdAt: stats.birthtime.toISOString(),
    ...(resolved.link ? { link: true as const } : {}),
    readable: stats.isFile() && stats.size <= base.maxBytes,
  };
}
