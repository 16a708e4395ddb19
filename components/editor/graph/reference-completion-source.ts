import type { Completion, CompletionContext, CompletionResult } from "@codemirror/autocomplete";
import type { EditorView } from "@codemirror/view";
import { applyCompletion, filterCompletions, findTrigger, type CompletionItem } from "./reference-completion";

/**
 * The `<` reference and `{{` environment completion of the prompt fields, as a CodeMirror
 * completion source: the same trigger, filter and insertion rules, read from the cursor's line.
 */
export function referenceCompletionSource(referenceItems: () => CompletionItem[], envNames: () => string[]) {
  return (context: CompletionContext): CompletionResult | null => {
    const line = context.state.doc.lineAt(context.pos);
    const cursor = context.pos - line.from;
    const trigger = findTrigger(line.text, cursor);
    if (!trigger) return null;
    const source =
      trigger.kind === "env" ? envNames().map((name) => ({ value: name, detail: "env" })) : referenceItems();
    const items = filterCompletions(source, trigger.query);
    if (items.length === 0) return null;
    const options: Completion[] = items.map((item) => ({
      label: trigger.kind === "env" ? `{{${item.value}}}` : `<${item.value}>`,
      detail: item.detail,
      type: trigger.kind === "env" ? "constant" : "variable",
      apply: (view: EditorView) => {
        // Re-read the line: the user may have typed on since the list opened.
        const head = view.state.selection.main.head;
        const current = view.state.doc.lineAt(head);
        const at = findTrigger(current.text, head - current.from);
        if (!at) return;
        const change = completionChange(current.text, head - current.from, at, item);
        view.dispatch({
          changes: { from: current.from + change.from, to: current.from + change.to, insert: change.insert },
          selection: { anchor: current.from + change.cursor },
          userEvent: "input.complete",
        });
      },
    }));
    // Filtering is ours (names match ignoring case and spaces), so the editor must not filter again.
    return { from: line.from + trigger.start, options, filter: false };
  };
}

/** The one replacement `applyCompletion` makes in a line, as a change: what it replaces, with what, and the cursor after. */
export function completionChange(
  text: string,
  cursor: number,
  trigger: NonNullable<ReturnType<typeof findTrigger>>,
  item: CompletionItem,
): { from: number; to: number; insert: string; cursor: number } {
  const result = applyCompletion(text, cursor, trigger, item);
  // Everything after the replaced span is kept as it was, so its length fixes where the span ended.
  const kept = result.text.length - result.cursor;
  return {
    from: trigger.start,
    to: text.length - kept,
    insert: result.text.slice(trigger.start, result.cursor),
    cursor: result.cursor,
  };
}
