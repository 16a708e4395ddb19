import type { StoredWorkflow } from "@/contract";

/**
 * Saving is tracked by revisions: every document change bumps `revision`; a save sends the
 * revision it started from, and the document is saved when `savedRevision` has caught up.
 */
export interface SaveSliceState {
  version: number;
  updatedAt?: string;
  revision: number;
  savedRevision: number;
  inFlightRevision: number | null;
  error: string | null;
  /** Set when the server refused a save as stale; `current` is the copy that won. */
  conflict: { current: StoredWorkflow | null } | null;
}

export const INITIAL_SAVE: SaveSliceState = {
  version: 0,
  revision: 0,
  savedRevision: 0,
  inFlightRevision: null,
  error: null,
  conflict: null,
};

export type SaveStatus = "saved" | "saving" | "unsaved" | "error" | "conflict";

export function saveStatus(save: SaveSliceState): SaveStatus {
  if (save.conflict) return "conflict";
  if (save.inFlightRevision !== null) return "saving";
  if (save.error) return "error";
  return save.revision === save.savedRevision ? "saved" : "unsaved";
}
