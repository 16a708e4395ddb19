import type { WorkflowBlock } from "@/contract";

/** A block type's description, for a candidate whose config has none. */
type TypeDescription = (type: string) => string | undefined;

/**
 * The routing prompt of the seed's router pipeline: every candidate's id, type, title,
 * description and system prompt, then the rule to answer with a bare block id. Candidate config
 * is deliberately not included beyond the system prompt: it may hold URLs, headers or keys.
 */
function describeCandidate(block: WorkflowBlock, typeDescription: TypeDescription): string {
  const config = block.config ?? {};
  const description =
    typeof config.description === "string" && config.description.trim()
      ? config.description
      : typeDescription(block.type);
  const lines = [`ID: ${block.id}`, `Type: ${block.type}`, `Title: ${block.name}`];
  if (description) lines.push(`Description: ${description}`);
  if (typeof config.systemPrompt === "string" && config.systemPrompt.trim())
    lines.push(`System Prompt: ${JSON.stringify(config.systemPrompt.trim())}`);
  return lines.join("\n");
}

export function buildRouterSystemPrompt(
  candidates: readonly WorkflowBlock[],
  typeDescription: TypeDescription = () => undefined,
): string {
  return [
    "You are a routing agent. Choose the single most suitable destination block for the request below.",
    "",
    "Available Target Blocks:",
    "",
    candidates.map((candidate) => describeCandidate(candidate, typeDescription)).join("\n---\n"),
    "---",
    "",
    "Judge each block by its title, description and system prompt against the intent of the request.",
    "",
    "Response Format:",
    "Return ONLY the destination block ID, exactly as written after `ID:`, with no other text, quotes or punctuation.",
    `Example: ${candidates[0]?.id ?? "block-id"}`,
  ].join("\n");
}

export function correctionMessage(answer: string, candidates: readonly WorkflowBlock[]): string {
  const ids = candidates.map((candidate) => candidate.id).join(", ");
  return `"${answer.trim().slice(0, 200)}" is not one of the block IDs. Answer with exactly one of these IDs and nothing else: ${ids}`;
}

/** The candidate an answer names: a bare id, ignoring case, surrounding quotes, backticks, whitespace and a final period. */
export function matchCandidate(answer: string, candidates: readonly WorkflowBlock[]): WorkflowBlock | undefined {
  const cleaned = answer
    .trim()
    .replace(/^["'`\s]+|["'`.\s]+$/g, "")
    .toLowerCase();
  return candidates.find((candidate) => candidate.id.toLowerCase() === cleaned);
}
