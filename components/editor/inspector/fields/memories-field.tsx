"use client";

import { CompletionInput } from "./completion-input";
import { inputClass, smallButtonClass, type FieldEditorProps } from "./field-props";
import { RowOrderControls } from "./row-order-controls";

const ROLES = ["user", "assistant", "system"] as const;
type Memory = { role: (typeof ROLES)[number]; content: string };

function asMemories(value: unknown): Memory[] {
  if (!Array.isArray(value)) return [];
  return value.map((item) => {
    const record = typeof item === "object" && item !== null ? (item as Record<string, unknown>) : {};
    const role = ROLES.find((each) => each === record.role) ?? "user";
    return { role, content: typeof record.content === "string" ? record.content : "" };
  });
}

/** The next message's role: the other side of the last one, so a conversation alternates. */
export function nextRole(memories: ReadonlyArray<{ role: string }>): Memory["role"] {
  return memories.at(-1)?.role === "user" ? "assistant" : "user";
}

/**
 * `memories`: earlier messages before the prompt, as a list (role and text with references), or
 * one reference to a list of them (a chat's `<start.history>`).
 */
export function MemoriesField(props: FieldEditorProps) {
  const fromReference = typeof props.value === "string";
  const memories = asMemories(props.value);
  const change = (next: Memory[]) => props.onChange(next.length > 0 ? next : undefined);
  const update = (index: number, patch: Partial<Memory>) =>
    change(memories.map((memory, at) => (at === index ? { ...memory, ...patch } : memory)));
  return (
    <div className="space-y-1.5" data-testid={`field-${props.field.key}`}>
      <div className="flex gap-3 text-xs text-slate-700" role="radiogroup" aria-label="Memories come from">
        <label className="flex items-center gap-1">
          <input
            type="radio"
            checked={!fromReference}
            onChange={() => props.onChange(undefined)}
            data-testid="memories-mode-list"
          />
          Messages
        </label>
        <label className="flex items-center gap-1">
          <input
            type="radio"
            checked={fromReference}
            onChange={() => props.onChange("<start.history>")}
            data-testid="memories-mode-reference"
          />
          A reference to a list
        </label>
      </div>
      {fromReference ? (
        <CompletionInput
          value={props.value as string}
          onChange={(text) => props.onChange(text)}
          referenceItems={props.referenceItems}
          envNames={props.envNames}
          label="Memories reference"
          testId="memories-reference"
          invalid={props.invalid}
          placeholder="<start.history>"
        />
      ) : (
        <>
          {memories.map((memory, index) => (
            <div key={index} className="space-y-1 rounded border border-slate-200 p-1.5" data-testid="memory-row">
              <div className="flex items-center gap-1">
                <select
                  aria-label="Role"
                  className={`${inputClass} w-32`}
                  value={memory.role}
                  onChange={(event) => update(index, { role: event.target.value as Memory["role"] })}
                >
                  {ROLES.map((role) => (
                    <option key={role} value={role}>
                      {role}
                    </option>
                  ))}
                </select>
                <span className="flex-1" />
                <RowOrderControls rows={memories} index={index} onChange={change} removeLabel="Remove message" />
              </div>
              <CompletionInput
                value={memory.content}
                onChange={(content) => update(index, { content })}
                referenceItems={props.referenceItems}
                envNames={props.envNames}
                multiline
                label={`Message ${index + 1}`}
                testId={`memory-content-${index}`}
              />
            </div>
          ))}
          <button
            type="button"
            className={smallButtonClass}
            onClick={() => change([...memories, { role: nextRole(memories), content: "" }])}
            data-testid="memory-add"
          >
            Add message
          </button>
        </>
      )}
    </div>
  );
}
