import { normalizeBlockName } from "@/contract";

/**
 * Completion inside prompt fields: `<` offers upstream blocks' output paths, `{{` offers
 * environment names. Pure text logic so it is tested without a browser.
 */
export type CompletionTrigger = {
  kind: "reference" | "env";
  start: number;
  query: string;
  /** After `??` inside an open reference (`<Sales Agent.content ?? Su`): `start` is where the alternative begins, and it is completed alone. */
  alternative?: boolean;
};

export interface CompletionItem {
  /** What is inserted between the delimiters, e.g. `Start.message` or `OPENAI_API_KEY`. */
  value: string;
  detail?: string;
}

/** The trigger the cursor is in, if any: an unclosed `<` or `{{` before it on the same line. */
export function findTrigger(text: string, cursor: number): CompletionTrigger | null {
  const before = text.slice(0, cursor);
  const env = /\{\{([A-Za-z0-9_]*)$/.exec(before);
  if (env) return { kind: "env", start: env.index, query: env[1] ?? "" };
  const reference = /<([^<>\n{}]*)$/.exec(before);
  if (!reference || /^\s/.test(reference[1] ?? "")) return null;
  const alternative = /\?\?[ \t]*([^?]*)$/.exec(reference[1] ?? "");
  if (alternative)
    return {
      kind: "reference",
      start: before.length - (alternative[1] ?? "").length,
      query: alternative[1] ?? "",
      alternative: true,
    };
  return { kind: "reference", start: reference.index, query: reference[1] ?? "" };
}

export function filterCompletions(items: ReadonlyArray<CompletionItem>, query: string, limit = 50): CompletionItem[] {
  const wanted = normalizeBlockName(query);
  if (!wanted) return items.slice(0, limit);
  const starts = items.filter((item) => normalizeBlockName(item.value).startsWith(wanted));
  const contains = items.filter(
    (item) => !normalizeBlockName(item.value).startsWith(wanted) && normalizeBlockName(item.value).includes(wanted),
  );
  return [...starts, ...contains].slice(0, limit);
}

/** Replaces the trigger text with the chosen item, closed, and says where the cursor goes. */
export function applyCompletion(
  text: string,
  cursor: number,
  trigger: CompletionTrigger,
  item: CompletionItem,
): { text: string; cursor: number } {
  // An alternative after `??` closes the reference opened before it; a space keeps `??` readable.
  const spacer = trigger.alternative && text[trigger.start - 1] === "?" ? " " : "";
  const inserted =
    trigger.kind === "env" ? `{{${item.value}}}` : trigger.alternative ? `${spacer}${item.value}>` : `<${item.value}>`;
  let end = cursor;
  // Swallow a closing delimiter already typed right after the cursor.
  const closing = trigger.kind === "env" ? "}}" : ">";
  if (text.startsWith(closing, end)) end += closing.length;
  return { text: text.slice(0, trigger.start) + inserted + text.slice(end), cursor: trigger.start + inserted.length };
}
