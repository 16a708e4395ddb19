import "server-only";
import type { ChatHistoryMessage, WorkflowDocument } from "@/contract";
import { entryBlockOf, isEntryBlock, isTerminalBlock } from "@/blocks";
import { outputText } from "@/executor";

/**
 * What a chat sends a workflow and what it takes back as the reply (docs/CONTRACT.md section 9).
 */

/** The most earlier messages a run receives as `<start.history>`: the newest ones. */
export const CHAT_HISTORY_LIMIT = 100;

/**
 * The run input of a chat message: `message` (the text sent) and `history` (the conversation's
 * earlier messages, oldest first). A start block that declares inputs but none named `message`
 * also gets the text in its first declared string input, so a workflow built with another name
 * for it (`question`) works as a chat too.
 */
export function chatRunInput(
  document: WorkflowDocument,
  message: string,
  history: ChatHistoryMessage[],
): Record<string, unknown> {
  const input: Record<string, unknown> = { message, history };
  const start = entryBlockOf(document.blocks);
  const declared = (
    (start?.config as { inputs?: Array<{ name?: unknown; type?: unknown }> } | undefined)?.inputs ?? []
  ).filter((entry): entry is { name: string; type?: unknown } => typeof entry?.name === "string");
  if (!declared.some((entry) => entry.name === "message")) {
    const first = declared.find((entry) => (entry.type ?? "string") === "string" && entry.name !== "history");
    if (first) input[first.name] = message;
  }
  return input;
}

/** The reply a run's output makes (executor/output-text.ts: the same reading an agent answering with a workflow's output uses). */
export const replyText = outputText;

/**
 * The blocks whose streamed text a visitor sees: those that give the answer, i.e. whose `out`
 * edges lead only to Response blocks, or nowhere (the run ends with them). A classifier or a
 * router earlier on the path streams nothing to the public.
 */
export function answeringBlockIds(document: WorkflowDocument): Set<string> {
  const byId = new Map(document.blocks.map((block) => [block.id, block]));
  const answering = new Set<string>();
  for (const block of document.blocks) {
    if (isTerminalBlock(block) || isEntryBlock(block) || block.parentId) continue;
    const next = document.edges
      .filter((edge) => edge.source === block.id && (edge.sourceHandle ?? "out") === "out")
      .map((edge) => byId.get(edge.target));
    if (next.every((target) => target !== undefined && isTerminalBlock(target))) answering.add(block.id);
  }
  return answering;
}
