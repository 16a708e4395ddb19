/** An object holding exactly one text value: that text. */
function onlyText(value: Record<string, unknown>): string | undefined {
  const texts = Object.values(value).filter((entry): entry is string => typeof entry === "string");
  return texts.length === 1 ? texts[0] : undefined;
}

/**
 * A run's output read as text, where a person reads it as an answer (a chat's reply, an agent
 * answering with a workflow's output): the output itself when it is text (a Response block whose
 * data is `<agent.content>`); the `content` of an agent that ended the run; the one text value of
 * an object (a Response block's `{ answer: "<agent.content>" }`); anything else as a JSON code block.
 */
export function outputText(output: unknown): string {
  if (output === null || output === undefined) return "";
  if (typeof output === "string") return output;
  if (typeof output === "object" && !Array.isArray(output)) {
    const record = output as Record<string, unknown>;
    if (typeof record.content === "string") return record.content;
    const text = onlyText(record);
    if (text !== undefined) return text;
  }
  return "```json\n" + JSON.stringify(output, null, 2) + "\n```";
}
