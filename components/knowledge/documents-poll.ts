import type { DocumentStatus } from "@/contract";

/**
 * How soon to ask for a base's documents again: every second while one is pending or processing
 * or while the list has fewer documents than the base counts, every 3 s after a failed request,
 * otherwise not at all.
 */
export function documentsPollInterval(
  documents: Array<{ status: DocumentStatus }> | undefined,
  failed: boolean,
  expectedCount: number,
): number | false {
  if (failed) return 3000;
  if (!documents) return false;
  if (documents.length < expectedCount) return 1000;
  return documents.some((document) => document.status === "pending" || document.status === "processing") ? 1000 : false;
}
