import type { ModelMessage } from "ai";
import { BlockExecutionError } from "@/executor";
import { memorySchema, type AgentConfig } from "./definition";

/**
 * The conversation an agent sends: its system prompt (plus any system memories), earlier
 * messages (memories), then the user prompt.
 */
export interface AgentConversation {
  system?: string;
  messages: ModelMessage[];
}

/** Memories arrive as an array, or as JSON text when a reference sat inside longer text. */
export function parseMemories(
  value: AgentConfig["memories"],
): Array<{ role: "system" | "user" | "assistant"; content: string }> {
  if (value === undefined || value === "") return [];
  let list: unknown = value;
  if (typeof value === "string") {
    try {
      list = JSON.parse(value);
    } catch {
      throw new BlockExecutionError(
        "memories must be an array of {role, content} messages (got text that is not JSON)",
        { code: "invalid_config" },
      );
    }
  }
  if (!Array.isArray(list))
    throw new BlockExecutionError("memories must be an array of {role, content} messages", { code: "invalid_config" });
  return list.map((item, index) => {
    const parsed = memorySchema.safeParse(item);
    if (!parsed.success) {
      throw new BlockExecutionError(
        `memories[${index}] must be {role: "system" | "user" | "assistant", content: string}`,
        { code: "invalid_config" },
      );
    }
    return parsed.data;
  });
}

export function buildConversation(
  config: Pick<AgentConfig, "systemPrompt" | "userPrompt" | "memories">,
): AgentConversation {
  const memories = parseMemories(config.memories);
  const systemParts = [
    config.systemPrompt,
    ...memories.filter((memory) => memory.role === "system").map((memory) => memory.content),
  ]
    .map((text) => text?.trim())
    .filter((text): text is string => Boolean(text));
  const messages: ModelMessage[] = memories
    .filter((memory) => memory.role !== "system")
    .map((memory) => ({ role: memory.role as "user" | "assistant", content: memory.content }));
  messages.push({ role: "user", content: config.userPrompt });
  return { system: systemParts.length > 0 ? systemParts.join("\n\n") : undefined, messages };
}
