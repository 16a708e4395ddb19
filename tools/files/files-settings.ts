import { existsSync, statSync } from "node:fs";
import { isAbsolute, join, resolve } from "node:path";

export const FILES_ROOT_ENV = "TRELLIS_FILES_ROOT";
export const FILES_MAX_BYTES_ENV = "TRELLIS_FILES_MAX_BYTES";
export const FILES_WRITE_ENV = "TRELLIS_FILES_WRITE";

export const DEFAULT_FILES_MAX_BYTES = 1_048_576;
const LARGEST_FILES_MAX_BYTES = 104_857_600;

/**
 * The operator's file-tool settings, for the whole instance. Each workspace's files live in its
 * own folder, `<TRELLIS_FILES_ROOT>/<workspace id>`, which the operator creates: a workspace
 * without one has no file tools. Workspace members cannot change any of this.
 */
export interface FilesSettings {
  /** The absolute root, or null when file tools are off. */
  root: string | null;
  /** Files larger than this are refused by every tool (read, search, write). */
  maxBytes: number;
  /** `true`: writes for every workspace; a set: for those workspace ids only. */
  write: boolean | ReadonlySet<string>;
}

export type FilesEnvReader = (name: string) => string | undefined;

/** Reads and checks the settings; a bad value throws an error naming its variable. */
export function filesSettingsFrom(env: FilesEnvReader, cwd: string = process.cwd()): FilesSettings {
  const rawRoot = env(FILES_ROOT_ENV)?.trim();
  const root = rawRoot ? (isAbsolute(rawRoot) ? resolve(rawRoot) : resolve(cwd, rawRoot)) : null;

  const rawMax = env(FILES_MAX_BYTES_ENV)?.trim();
  let maxBytes = DEFAULT_FILES_MAX_BYTES;
  if (rawMax) {
    maxBytes = Number(rawMax);
    if (!Number.isInteger(maxBytes) || maxBytes < 1 || maxBytes > LARGEST_FILES_MAX_BYTES) {
      throw new Error(
        `${FILES_MAX_BYTES_ENV} must be a whole number of bytes from 1 to ${LARGEST_FILES_MAX_BYTES}, not "${rawMax}"`,
      );
    }
  }

  const rawWrite = env(FILES_WRITE_ENV)?.trim() ?? "";
  let write: FilesSettings["write"];
  if (rawWrite === "" || rawWrite.toLowerCase() === "off") write = false;
  else if (rawWrite.toLowerCase() === "on") write = true;
  else {
    const ids = rawWrite
      .split(",")
      .map((id) => id.trim())
      .filter(Boolean);
    const bad = ids.find((id) => !/^[A-Za-z0-9_-]+$/.test(id));
    if (bad !== undefined)
      throw new Error(
        `${FILES_WRITE_ENV} must be "on", "off" or a comma-separated list of workspace ids, not "${rawWrite}"`,
      );
    write = new Set(ids);
  }
  return { root, maxBytes, write };
}

/** What one workspace may do with files, as its runs see it. */
export interface WorkspaceFiles {
  /** The workspace's folder (absolute), or null when it has none. */
  base: string | null;
  /** How messages name the folder: as the operator configured it, never the host's absolute path. */
  label: string;
  maxBytes: number;
  writable: boolean;
  /** Why there is no folder, for the error a tool entry gets. */
  unavailableReason?: string;
}

/** Workspace ids are uuids, but a folder name must never be able to climb out of the root. */
const SAFE_FOLDER_NAME = /^[A-Za-z0-9_-]+$/;

export function workspaceFiles(settings: FilesSettings, workspaceId: string): WorkspaceFiles {
  const label = `${FILES_ROOT_ENV}/${workspaceId}`;
  const writable = settings.write === true || (settings.write !== false && settings.write.has(workspaceId));
  const common = { label, maxBytes: settings.maxBytes, writable };
  if (!settings.root) {
    return {
      ...common,
      base: null,
      unavailableReason: `File tools are off on this instance: the operator sets ${FILES_ROOT_ENV} to turn them on`,
    };
  }
  if (!SAFE_FOLDER_NAME.test(workspaceId))
    return { ...common, base: null, unavailableReason: `The workspace id "${workspaceId}" cannot name a folder` };
  const base = join(settings.root, workspaceId);
  if (!existsSync(base) || !statSync(base).isDirectory()) {
    return {
      ...common,
      base: null,
      unavailableReason: `This workspace has no files folder: the operator creates ${label} (a folder named after the workspace id under ${FILES_ROOT_ENV}) to give it one`,
    };
  }
  return { ...common, base };
}
