"use client";

import { Plus, Trash2 } from "lucide-react";
import { useState } from "react";
import { CodeEditor } from "@/components/code-editor";
import { parseToolEntry, toolNamesOfEntry } from "@/contract";
import { useEditorStore } from "../../store";
import { inputClass, smallButtonClass } from "../fields/field-props";
import { parseSampleText, sampleText } from "./sample-text";
import { useTestingPart } from "./use-testing";

/** The tool names an agent's `tools` entries give the model, as far as the document says (an MCP entry's `params.tools`). */
export function toolNamesOf(entries: unknown): string[] {
  if (!Array.isArray(entries)) return [];
  return entries.flatMap((entry: unknown): string[] => {
    const parsed = parseToolEntry(entry);
    return (parsed && toolNamesOfEntry(parsed)) ?? [];
  });
}

interface Row {
  name: string;
  text: string;
}

/**
 * What a test run answers for each side-effecting tool call of the agent (http_request, MCP tools
 * not marked read-only, file_write), by the tool's name: the result the model reads. A tool with
 * no sample answers "no sample"; other tools run as usual.
 */
export function ToolSamplesEditor({ blockId }: { blockId: string }) {
  const [samples, setSamples] = useTestingPart(blockId, "tools");
  const suggestions = toolNamesOf(
    useEditorStore((state) => state.nodes.find((node) => node.id === blockId)?.data.config.tools),
  );
  const [rows, setRows] = useState<Row[]>(() =>
    Object.entries(samples ?? {}).map(([name, result]) => ({ name, text: sampleText(result) })),
  );
  const commit = (next: Row[]) => {
    setRows(next);
    const named = next.filter((row) => row.name.trim());
    setSamples(
      named.length > 0
        ? Object.fromEntries(named.map((row) => [row.name.trim(), parseSampleText(row.text) ?? null]))
        : undefined,
    );
  };
  const change = (index: number, patch: Partial<Row>) =>
    commit(rows.map((row, at) => (at === index ? { ...row, ...patch } : row)));
  const unused = suggestions.filter((name) => !rows.some((row) => row.name.trim() === name));
  const listId = `tool-sample-names-${blockId}`;
  return (
    <div className="space-y-1.5" data-testid="test-sample-tools">
      <datalist id={listId}>
        {suggestions.map((name) => (
          <option key={name} value={name} />
        ))}
      </datalist>
      {rows.map((row, index) => (
        <div key={index} className="space-y-1 rounded border border-slate-200 p-1.5" data-testid="test-sample-tool-row">
          <div className="flex items-center gap-1">
            <input
              className={inputClass}
              placeholder="tool name"
              list={listId}
              value={row.name}
              aria-label="Tool name"
              data-testid="test-sample-tool-name"
              onChange={(event) => change(index, { name: event.target.value })}
            />
            <button
              type="button"
              className="icon-btn h-6 w-6"
              aria-label="Remove this tool's sample"
              onClick={() => commit(rows.filter((_, at) => at !== index))}
            >
              <Trash2 className="h-3.5 w-3.5" />
            </button>
          </div>
          <CodeEditor
            language="json"
            jsonOrText
            placeholder='Result the model gets (JSON, or text), e.g. {"status": 200, "body": "ok"}'
            value={row.text}
            label="Result"
            testId="test-sample-tool-result"
            onChange={(text) => change(index, { text })}
            minLines={2}
          />
        </div>
      ))}
      <button
        type="button"
        className={smallButtonClass}
        data-testid="test-sample-tool-add"
        onClick={() => commit([...rows, { name: unused[0] ?? "", text: "" }])}
      >
        <Plus className="inline h-3 w-3" aria-hidden /> Sample for a tool
      </button>
    </div>
  );
}
