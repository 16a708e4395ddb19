import type { WorkflowDocumentInput } from "@/contract";
import { fillTemplate, usesSampleKnowledge, type WorkflowTemplate } from "@/examples";
import { ensureSampleKnowledgeBase } from "./sample-knowledge-base";

/** The workflow a template makes, named `name`, with the sample knowledge base made first where it searches one. */
export async function documentFromTemplate(template: WorkflowTemplate, name?: string): Promise<WorkflowDocumentInput> {
  const knowledgeBaseId = usesSampleKnowledge(template) ? await ensureSampleKnowledgeBase() : undefined;
  return fillTemplate(template, { ...(name ? { name } : {}), ...(knowledgeBaseId ? { knowledgeBaseId } : {}) });
}

/** `name`, or `name 2`, `name 3`... when a workflow already has it. */
export function unusedName(name: string, taken: ReadonlyArray<string>): string {
  const names = new Set(taken);
  if (!names.has(name)) return name;
  let count = 2;
  while (names.has(`${name} ${count}`)) count++;
  return `${name} ${count}`;
}
