"use client";

import type { CompletionItem } from "../../graph/reference-completion";

export function CompletionList({
  id,
  items,
  active,
  onPick,
  kind,
}: {
  id: string;
  items: CompletionItem[];
  active: number;
  onPick: (item: CompletionItem) => void;
  kind: "reference" | "env";
}) {
  return (
    <ul
      id={id}
      role="listbox"
      aria-label={kind === "env" ? "Environment names" : "References"}
      data-testid="completion-list"
      className="absolute left-0 right-0 top-full z-20 mt-1 max-h-56 overflow-y-auto rounded border border-slate-200 bg-white py-1 text-xs shadow-lg"
    >
      {items.length === 0 && (
        <li className="px-2 py-1 text-slate-500">
          {kind === "env" ? "No environment names" : "No upstream outputs: connect a block first"}
        </li>
      )}
      {items.map((item, index) => (
        <li
          key={item.value}
          id={`${id}-${index}`}
          role="option"
          aria-selected={index === active}
          data-testid="completion-option"
          data-value={item.value}
          onMouseDown={(event) => {
            event.preventDefault();
            onPick(item);
          }}
          className={`flex cursor-pointer justify-between gap-2 px-2 py-1 ${index === active ? "bg-indigo-100" : "hover:bg-slate-100"}`}
        >
          <span className="font-mono">{kind === "env" ? `{{${item.value}}}` : `<${item.value}>`}</span>
          {item.detail && <span className="text-slate-400">{item.detail}</span>}
        </li>
      ))}
    </ul>
  );
}
