"use client";

import { useId, useRef, useState, type KeyboardEvent } from "react";
import {
  applyCompletion,
  filterCompletions,
  findTrigger,
  type CompletionItem,
  type CompletionTrigger,
} from "../../graph/reference-completion";
import { CompletionList } from "./completion-list";

type TextElement = HTMLTextAreaElement | HTMLInputElement;

/**
 * A text box that completes `<` with references and `{{` with environment names. Sources are
 * functions so nothing is computed until a trigger is typed.
 */
export function CompletionInput({
  value,
  onChange,
  referenceItems,
  envNames,
  multiline,
  monospace,
  placeholder,
  label,
  testId,
  invalid,
}: {
  value: string;
  onChange: (value: string) => void;
  referenceItems: () => CompletionItem[];
  envNames: () => string[];
  multiline?: boolean;
  monospace?: boolean;
  placeholder?: string;
  label: string;
  testId?: string;
  invalid?: boolean;
}) {
  const listId = useId();
  const ref = useRef<TextElement | null>(null);
  const [trigger, setTrigger] = useState<CompletionTrigger | null>(null);
  const [items, setItems] = useState<CompletionItem[]>([]);
  const [active, setActive] = useState(0);

  const refresh = (element: TextElement) => {
    const cursor = element.selectionStart ?? element.value.length;
    const found = findTrigger(element.value, cursor);
    setTrigger(found);
    setActive(0);
    if (!found) return setItems([]);
    const source = found.kind === "env" ? envNames().map((name) => ({ value: name, detail: "env" })) : referenceItems();
    setItems(filterCompletions(source, found.query));
  };

  const pick = (item: CompletionItem) => {
    const element = ref.current;
    if (!element || !trigger) return;
    const result = applyCompletion(element.value, element.selectionStart ?? element.value.length, trigger, item);
    onChange(result.text);
    setTrigger(null);
    requestAnimationFrame(() => {
      element.focus();
      element.setSelectionRange(result.cursor, result.cursor);
    });
  };

  const onKeyDown = (event: KeyboardEvent<TextElement>) => {
    if (!trigger) return;
    if (event.key === "Escape") return void (event.preventDefault(), setTrigger(null));
    if (items.length === 0) return;
    if (event.key === "ArrowDown") return void (event.preventDefault(), setActive((active + 1) % items.length));
    if (event.key === "ArrowUp")
      return void (event.preventDefault(), setActive((active - 1 + items.length) % items.length));
    if (event.key === "Enter" || event.key === "Tab") {
      event.preventDefault();
      pick(items[active]!);
    }
  };

  const common = {
    value,
    placeholder,
    "aria-label": label,
    "aria-autocomplete": "list" as const,
    "aria-expanded": trigger !== null,
    "aria-controls": trigger ? listId : undefined,
    "aria-activedescendant": trigger && items.length > 0 ? `${listId}-${active}` : undefined,
    "aria-invalid": invalid || undefined,
    "data-testid": testId,
    spellCheck: false,
    className: `w-full rounded border px-2 py-1 text-sm outline-none focus:border-indigo-500 ${invalid ? "border-red-400" : "border-slate-300"} ${monospace ? "font-mono text-xs" : ""}`,
    onKeyDown,
    onBlur: () => setTrigger(null),
    onClick: (event: { currentTarget: TextElement }) => refresh(event.currentTarget),
  };

  return (
    <div className="relative">
      {multiline ? (
        <textarea
          {...common}
          ref={(element) => void (ref.current = element)}
          rows={monospace ? 8 : 4}
          onChange={(event) => {
            onChange(event.target.value);
            refresh(event.target);
          }}
        />
      ) : (
        <input
          {...common}
          ref={(element) => void (ref.current = element)}
          onChange={(event) => {
            onChange(event.target.value);
            refresh(event.target);
          }}
        />
      )}
      {trigger && <CompletionList id={listId} items={items} active={active} onPick={pick} kind={trigger.kind} />}
    </div>
  );
}
