import { workflowDocumentSchema, type WorkflowDocument } from "@/contract";

/**
 * Unsaved work kept in this browser's localStorage, so a refused save (an unfinished block the
 * server will not store yet), a crash or a closed tab never loses it.
 */
export interface DraftBackup {
  basedOnVersion: number;
  keptAt: string;
  document: WorkflowDocument;
}

const key = (workflowId: string) => `trellis:draft:${workflowId}`;

export function writeDraft(workflowId: string, draft: DraftBackup): void {
  try {
    localStorage.setItem(key(workflowId), JSON.stringify(draft));
  } catch {
    // Storage full or disabled: the tab still holds the work and the leave prompt guards it.
  }
}

export function clearDraft(workflowId: string): void {
  try {
    localStorage.removeItem(key(workflowId));
  } catch {
    // nothing kept, nothing to clear
  }
}

export function readDraft(workflowId: string): DraftBackup | null {
  try {
    const raw = localStorage.getItem(key(workflowId));
    if (!raw) return null;
    const parsed = JSON.parse(raw) as Partial<DraftBackup>;
    const document = workflowDocumentSchema.safeParse(parsed.document);
    if (!document.success || typeof parsed.basedOnVersion !== "number" || typeof parsed.keptAt !== "string")
      return null;
    return { basedOnVersion: parsed.basedOnVersion, keptAt: parsed.keptAt, document: document.data };
  } catch {
    return null;
  }
}
