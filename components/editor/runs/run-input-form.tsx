"use client";

import { useEffect, useMemo, useRef, useState, type FormEvent } from "react";
import { CodeEditor } from "@/components/code-editor";
import { useEditorStore } from "@/components/editor/store";
import { RunEstimateSummary } from "./estimate-badges";

interface StartInput {
  name: string;
  type: "string" | "number" | "boolean" | "object" | "array";
  description?: string;
  default?: unknown;
}

function useStartInputs(): StartInput[] {
  const inputs = useEditorStore((state) => state.nodes.find((node) => node.data.type === "start")?.data.config.inputs);
  return useMemo(
    () => (Array.isArray(inputs) ? (inputs as StartInput[]).filter((input) => typeof input?.name === "string") : []),
    [inputs],
  );
}

function initialText(input: StartInput): string {
  if (input.default === undefined) return input.type === "boolean" ? "false" : "";
  return typeof input.default === "string" ? input.default : JSON.stringify(input.default);
}

/** Turns what was typed into the run's input; the error names the field. */
function parseInputs(inputs: StartInput[], texts: Record<string, string>): Record<string, unknown> {
  const values: Record<string, unknown> = {};
  for (const input of inputs) {
    const text = texts[input.name] ?? initialText(input);
    if (input.type === "string") values[input.name] = text;
    else if (input.type === "boolean") values[input.name] = text === "true";
    else if (input.type === "number") {
      if (text.trim() === "") continue;
      const number = Number(text);
      if (!Number.isFinite(number)) throw new Error(`"${input.name}" must be a number.`);
      values[input.name] = number;
    } else {
      if (text.trim() === "") continue;
      let parsed: unknown;
      try {
        parsed = JSON.parse(text);
      } catch {
        throw new Error(`"${input.name}" must be JSON (${input.type === "array" ? "[ … ]" : "{ … }"}).`);
      }
      if (
        input.type === "array"
          ? !Array.isArray(parsed)
          : typeof parsed !== "object" || parsed === null || Array.isArray(parsed)
      ) {
        throw new Error(`"${input.name}" must be a JSON ${input.type}.`);
      }
      values[input.name] = parsed;
    }
  }
  return values;
}

/** The start block's inputs as a form; what was typed stays for the next run. `test`: it starts a test run. */
export function RunInputForm({
  onSubmit,
  onClose,
  test = false,
}: {
  onSubmit: (input: Record<string, unknown>) => Promise<boolean>;
  onClose: () => void;
  test?: boolean;
}) {
  const inputs = useStartInputs();
  const [texts, setTexts] = useState<Record<string, string>>({});
  const [problem, setProblem] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const form = useRef<HTMLFormElement>(null);
  // Opened (by Run, Test run or Mod+Enter), the form takes the focus: its first field, else its button.
  useEffect(() => {
    form.current?.querySelector<HTMLElement>("input, textarea, select, button[type=submit]")?.focus();
  }, []);
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    let values: Record<string, unknown>;
    try {
      values = parseInputs(inputs, texts);
    } catch (error) {
      return setProblem((error as Error).message);
    }
    setProblem(null);
    setBusy(true);
    const started = await onSubmit(values);
    setBusy(false);
    if (started) onClose();
  };
  const set = (name: string, value: string) => setTexts((current) => ({ ...current, [name]: value }));
  // The estimate follows what is typed (the last input that parses); closing the form forgets it.
  const setEstimateInput = useEditorStore((state) => state.setEstimateInput);
  useEffect(() => {
    try {
      setEstimateInput(parseInputs(inputs, texts));
    } catch {
      // Not parseable yet (half-typed JSON): the estimate keeps the last input that was.
    }
  }, [inputs, texts, setEstimateInput]);
  useEffect(() => () => setEstimateInput(null), [setEstimateInput]);
  return (
    <form
      ref={form}
      onSubmit={(event) => void submit(event)}
      className="absolute right-0 top-10 z-50 w-96 rounded-lg border border-slate-200 bg-white p-3 shadow-lg"
      data-testid="run-form"
      onKeyDown={(event) => {
        if (event.key === "Escape") onClose();
        // Mod+Enter starts the run from any field (Enter alone makes a new line in a text area).
        if (event.key === "Enter" && (event.ctrlKey || event.metaKey)) {
          event.preventDefault();
          event.stopPropagation();
          form.current?.requestSubmit();
        }
      }}
    >
      <p className="mb-2 text-xs font-semibold uppercase tracking-wide text-slate-500">
        {test ? "Test run with input" : "Run with input"}
      </p>
      {test && (
        <p className="mb-2 text-xs text-teal-800" data-testid="test-run-note">
          API, web, fetch and side-effecting tool calls are not sent: each answers from its block&apos;s test sample (or
          says it has none). Models run for real unless a block uses a recorded answer.
        </p>
      )}
      {inputs.length === 0 && <p className="mb-2 text-sm text-slate-500">The start block declares no inputs.</p>}
      {inputs.map((input, index) => {
        const value = texts[input.name] ?? initialText(input);
        const id = `run-input-${input.name}`;
        return (
          <label key={input.name} htmlFor={id} className="mb-2 block text-sm">
            <span className="font-medium">{input.name}</span>{" "}
            <span className="text-xs text-slate-400">{input.type}</span>
            {input.description && <span className="block text-xs text-slate-500">{input.description}</span>}
            {input.type === "boolean" ? (
              <input
                id={id}
                data-testid={id}
                type="checkbox"
                className="ml-2"
                checked={value === "true"}
                onChange={(event) => set(input.name, String(event.target.checked))}
              />
            ) : input.type === "number" ? (
              <input
                id={id}
                data-testid={id}
                type="number"
                className="mt-1 w-full rounded border border-slate-300 px-2 py-1"
                value={value}
                autoFocus={index === 0}
                onChange={(event) => set(input.name, event.target.value)}
              />
            ) : input.type === "object" || input.type === "array" ? (
              <div className="mt-1">
                <CodeEditor
                  language="json"
                  label={input.name}
                  testId={id}
                  value={value}
                  onChange={(text) => set(input.name, text)}
                  onModEnter={() => form.current?.requestSubmit()}
                  minLines={3}
                />
              </div>
            ) : (
              <textarea
                id={id}
                data-testid={id}
                rows={3}
                className="mt-1 w-full rounded border border-slate-300 px-2 py-1"
                value={value}
                autoFocus={index === 0}
                onChange={(event) => set(input.name, event.target.value)}
                onKeyDown={(event) => {
                  if (event.key === "Enter" && (event.metaKey || event.ctrlKey)) void submit(event);
                }}
              />
            )}
          </label>
        );
      })}
      <RunEstimateSummary />
      {problem && (
        <p className="mb-2 text-sm text-red-700" role="alert">
          {problem}
        </p>
      )}
      <div className="flex justify-end gap-2">
        <button type="button" className="btn-secondary" onClick={onClose}>
          Close
        </button>
        <button type="submit" className="btn-primary" disabled={busy} data-testid="run-submit">
          {busy ? "Starting…" : test ? "Start test run" : "Start run"}
        </button>
      </div>
    </form>
  );
}
