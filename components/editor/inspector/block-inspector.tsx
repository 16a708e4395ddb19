"use client";

import { useCallback, useEffect, useRef, useState } from "react";
import { getBlockDefinition, type FieldHint } from "@/blocks";
import { referenceItemsFor } from "../graph/reference-items";
import { useEditorStore, useEditorStoreApi } from "../store";
import { BlockIcon } from "../canvas/block-icon";
import { useBlockIssueSplit } from "../canvas/node-issues";
import { FieldEditor } from "./field-editor";
import { useEnvNames } from "./editor-queries";
import { useSetConfigValue } from "./use-field-value";
import { inputClass } from "./fields/field-props";
import { blockIssuePrefix } from "./issue-paths";
import { issueText } from "../graph/issue-attention";
import { TestSampleSection } from "./test-samples/test-sample-section";

export function BlockInspector({ blockId }: { blockId: string }) {
  const store = useEditorStoreApi();
  const data = useEditorStore((state) => state.nodes.find((node) => node.id === blockId)?.data);
  const { hints, problems: issues } = useBlockIssueSplit(blockId);
  const envNames = useEnvNames();
  const referenceItems = useCallback(() => {
    const state = store.getState();
    const document = state.toDocument();
    return referenceItemsFor(document.blocks, document.edges, state.meta.variables, blockId);
  }, [store, blockId]);
  const envNameList = useCallback(() => envNames.data ?? [], [envNames.data]);
  if (!data) return null;
  const definition = getBlockDefinition(data.type);
  const visible = (field: FieldHint) =>
    !field.showWhen || field.showWhen.equals.includes(String(data.config[field.showWhen.key] ?? ""));
  const unplaced = issues.filter(
    (issue) => !definition?.fields.some((field) => issue.path.startsWith(`${blockIssuePrefix}${field.key}`)),
  );

  return (
    <div className="space-y-3 p-4" data-testid="block-inspector" data-block-id={blockId}>
      <header className="flex items-center gap-2">
        <BlockIcon name={definition?.icon ?? "Box"} className="h-5 w-5 text-slate-600" />
        <div>
          <div className="text-xs text-slate-500">{definition?.label ?? data.type}</div>
          <div className="text-[11px] text-slate-400">{definition?.description}</div>
        </div>
      </header>
      <BlockNameInput blockId={blockId} name={data.name} />
      <label className="flex items-center gap-2 text-xs text-slate-700">
        <input
          type="checkbox"
          checked={data.enabled}
          onChange={(event) => store.getState().updateBlock(blockId, { enabled: event.target.checked })}
          data-testid="field-enabled"
        />
        Enabled (a disabled block is skipped)
      </label>
      {unplaced.length > 0 && (
        <ul className="rounded border border-red-200 bg-red-50 p-2 text-xs text-red-700" data-testid="inspector-issues">
          {unplaced.map((issue, index) => (
            <li key={index}>{issueText(issue.message)}</li>
          ))}
        </ul>
      )}
      {definition?.fields.filter(visible).map((field) => (
        <FieldRow
          key={field.key}
          blockId={blockId}
          field={field}
          value={data.config[field.key]}
          issues={issues}
          hints={hints}
          referenceItems={referenceItems}
          envNames={envNameList}
        />
      ))}
      <TestSampleSection blockId={blockId} />
    </div>
  );
}

function FieldRow({
  blockId,
  field,
  value,
  issues,
  hints,
  referenceItems,
  envNames,
}: {
  blockId: string;
  field: FieldHint;
  value: unknown;
  issues: ReadonlyArray<{ path: string; message: string }>;
  /** What the empty field needs, shown gently until it is touched or a run is tried. */
  hints: ReadonlyArray<{ path: string; message: string }>;
  referenceItems: () => ReturnType<typeof referenceItemsFor>;
  envNames: () => string[];
}) {
  const store = useEditorStoreApi();
  const setValue = useSetConfigValue(blockId, field.key);
  const onChange = useCallback(
    (next: unknown) => {
      store.getState().touchField(blockId, field.key);
      setValue(next);
    },
    [store, blockId, field.key, setValue],
  );
  const row = useFocusRequest(blockId, field.key);
  const isMine = (issue: { path: string }) =>
    issue.path === `${blockIssuePrefix}${field.key}` ||
    issue.path.startsWith(`${blockIssuePrefix}${field.key}.`) ||
    issue.path.startsWith(`${blockIssuePrefix}${field.key}[`);
  const mine = issues.filter(isMine);
  const myHints = hints.filter(isMine);
  return (
    <div
      ref={row}
      className="space-y-1"
      data-testid={`field-row-${field.key}`}
      onBlur={(event) => {
        // Leaving the field (not moving between its own inputs) counts as having touched it.
        if (!event.currentTarget.contains(event.relatedTarget as Node | null))
          store.getState().touchField(blockId, field.key);
      }}
    >
      <div className="text-xs font-medium text-slate-700">{field.label}</div>
      <FieldEditor
        blockId={blockId}
        field={field}
        value={value}
        onChange={onChange}
        invalid={mine.length > 0}
        referenceItems={referenceItems}
        envNames={envNames}
      />
      {field.help && <p className="text-[11px] text-slate-500">{field.help}</p>}
      {mine.map((issue, index) => (
        <p key={index} className="text-[11px] text-red-700" data-testid={`field-issue-${field.key}`}>
          {issueText(issue.message, field.label)}
        </p>
      ))}
      {myHints.map((issue, index) => (
        <p key={index} className="text-[11px] text-slate-500" data-testid={`field-hint-${field.key}`}>
          {issueText(issue.message, field.label)}
        </p>
      ))}
    </div>
  );
}

const FOCUSABLE = 'textarea, input:not([type="hidden"]), select, [contenteditable="true"], button';

/** Focuses the field's first input when the fix list asks for it (and scrolls it into view). */
function useFocusRequest(blockId: string, fieldKey: string) {
  const store = useEditorStoreApi();
  const row = useRef<HTMLDivElement>(null);
  const request = useEditorStore((state) => state.attention.focusRequest);
  useEffect(() => {
    if (!request || request.blockId !== blockId || request.fieldKey !== fieldKey) return;
    const target = row.current?.querySelector<HTMLElement>(FOCUSABLE);
    target?.scrollIntoView({ block: "center" });
    target?.focus();
    store.getState().clearFocusRequest();
  }, [store, request, blockId, fieldKey]);
  return row;
}

/**
 * Names must stay unique (references use them), so a clash is shown rather than saved. When the
 * edit ends, references to the block's old name are pointed at the new one.
 */
function BlockNameInput({ blockId, name }: { blockId: string; name: string }) {
  const store = useEditorStoreApi();
  const [draft, setDraft] = useState(name);
  const [lastName, setLastName] = useState(name);
  const [nameAtFocus, setNameAtFocus] = useState<string | null>(null);
  // Follows the store when the name changes elsewhere (undo, redo).
  if (name !== lastName) {
    setLastName(name);
    if (name !== draft.trim()) setDraft(name);
  }
  const finishRename = () => {
    if (nameAtFocus === null) return;
    setNameAtFocus(null);
    store.getState().renameReferences(blockId, nameAtFocus);
  };
  return (
    <label className="block text-xs font-medium text-slate-700">
      Name
      <input
        className={`${inputClass} mt-1`}
        value={draft}
        data-testid="field-name"
        onFocus={() => setNameAtFocus(name)}
        onBlur={finishRename}
        onKeyDown={(event) => {
          if (event.key === "Enter") finishRename();
        }}
        onChange={(event) => {
          setDraft(event.target.value);
          if (event.target.value.trim())
            store.getState().updateBlock(blockId, { name: event.target.value.trim() }, "name");
        }}
      />
    </label>
  );
}
