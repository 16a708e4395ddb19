import { entryBlockOf, startConfigSchema } from "@/blocks";
import type { WorkflowDocument } from "@/contract";

/** The start block's declared inputs in a document (none when it has no start block). */
export function startInputs(document: WorkflowDocument | undefined) {
  const start = document ? entryBlockOf(document.blocks) : undefined;
  const parsed = startConfigSchema.safeParse(start?.config ?? {});
  return parsed.success ? parsed.data.inputs : [];
}
