"use client";

import { entryBlockOf, startConfigSchema } from "@/blocks";
import { useWorkflowList } from "@/components/workflows/use-workflows";
import { useEditorStore } from "../../store";
import { useWorkflowDocument } from "../editor-queries";
import { CompletionInput } from "./completion-input";
import { asString, inputClass, smallButtonClass, type FieldEditorProps } from "./field-props";
import { valueOfText } from "./text-fields";

/**
 * `workflow`: another workflow of the workspace, by name. The one being edited is not offered (a
 * block running its own workflow is a cycle); a chosen id that no longer exists is shown as
 * missing, so a run's failure is never a surprise.
 */
export function WorkflowPickerField(props: FieldEditorProps) {
  const workflows = useWorkflowList();
  const editing = useEditorStore((state) => state.workflowId);
  const chosen = typeof props.value === "string" ? props.value : "";
  const offered = (workflows.data ?? []).filter((workflow) => workflow.id !== editing);
  const missing =
    workflows.data !== undefined && chosen !== "" && !workflows.data.some((workflow) => workflow.id === chosen);
  return (
    <div className="space-y-1">
      <select
        value={chosen}
        aria-label={props.field.label}
        aria-invalid={props.invalid || undefined}
        data-testid={`field-${props.field.key}`}
        className={inputClass}
        onChange={(event) => props.onChange(event.target.value || undefined)}
      >
        <option value="">{workflows.isPending ? "Loading workflows…" : "Choose a workflow"}</option>
        {offered.map((workflow) => (
          <option key={workflow.id} value={workflow.id}>
            {workflow.name}
          </option>
        ))}
        {chosen === editing && <option value={chosen}>This workflow (a cycle)</option>}
        {missing && <option value={chosen}>Not found: {chosen}</option>}
      </select>
      {workflows.isError && (
        <p role="alert" className="text-xs text-red-600">
          Could not list workflows: {workflows.error.message}{" "}
          <button type="button" className={smallButtonClass} onClick={() => void workflows.refetch()}>
            Retry
          </button>
        </p>
      )}
      {missing && (
        <p role="alert" className="text-xs text-red-600" data-testid="workflow-missing">
          The workflow <code>{chosen}</code> no longer exists in this workspace: choose another.
        </p>
      )}
    </div>
  );
}

/** What an input box stores: text with references as typed; for object and array inputs, JSON when it parses. */
function inputValue(type: string, text: string): unknown {
  if (type === "object" || type === "array") return valueOfText(text);
  return text === "" ? undefined : text;
}

/**
 * `workflowInputs`: one box per start input of the workflow chosen in the block's `workflowId`
 * (name, type, description as help), references allowed. Values for inputs the child no longer
 * declares are listed so they can be removed.
 */
export function WorkflowInputsField(props: FieldEditorProps) {
  const workflowId = useEditorStore((state) => {
    const id = state.nodes.find((node) => node.id === props.blockId)?.data.config.workflowId;
    return typeof id === "string" && id ? id : undefined;
  });
  if (!workflowId) return <p className="text-xs text-slate-500">Choose a workflow first.</p>;
  return (
    <WorkflowInputValues
      {...props}
      workflowId={workflowId}
      testId={`field-${props.field.key}`}
      inputTestId={(name) => `workflow-input-${name}`}
    />
  );
}

/**
 * A value per start input of another workflow (a Workflow block's inputs, a workflow tool's
 * pre-filled ones), stored as `{ inputName: value }`, or nothing when none is given.
 */
export function WorkflowInputValues(
  props: Pick<FieldEditorProps, "value" | "onChange" | "invalid" | "referenceItems" | "envNames"> & {
    workflowId: string;
    testId: string;
    inputTestId: (name: string) => string;
    /** A placeholder for an input with no default left empty (a workflow tool: the model gives it). */
    emptyMeans?: string;
  },
) {
  const child = useWorkflowDocument(props.workflowId);
  const values =
    typeof props.value === "object" && props.value !== null && !Array.isArray(props.value)
      ? (props.value as Record<string, unknown>)
      : {};
  if (child.isPending) return <p className="text-xs text-slate-500">Loading its inputs…</p>;
  if (child.isError) return <p className="text-xs text-red-600">Could not read the workflow: {child.error.message}</p>;
  const start = entryBlockOf(child.data.blocks);
  const inputs = (start && startConfigSchema.safeParse(start.config).data?.inputs) || [];
  const declared = new Set(inputs.map((input) => input.name));
  const stale = Object.keys(values).filter((name) => !declared.has(name));
  const set = (name: string, value: unknown) => {
    const next = { ...values };
    if (value === undefined) delete next[name];
    else next[name] = value;
    props.onChange(Object.keys(next).length > 0 ? next : undefined);
  };
  return (
    <div className="space-y-2" data-testid={props.testId}>
      {inputs.length === 0 && <p className="text-xs text-slate-500">{child.data.name} takes no inputs.</p>}
      {inputs.map((input) => (
        <div key={input.name} className="space-y-0.5">
          <div className="text-[11px] text-slate-600">
            <code>{input.name}</code> <span className="text-slate-400">{input.type}</span>
            {input.default === undefined ? (
              <span className="text-red-600"> required</span>
            ) : (
              <span className="text-slate-400"> optional</span>
            )}
          </div>
          <CompletionInput
            value={asString(values[input.name])}
            onChange={(text) => set(input.name, inputValue(input.type, text))}
            referenceItems={props.referenceItems}
            envNames={props.envNames}
            placeholder={input.default === undefined ? props.emptyMeans : `default: ${asString(input.default)}`}
            label={input.name}
            testId={props.inputTestId(input.name)}
            invalid={props.invalid}
          />
          {input.description && <p className="text-[11px] text-slate-500">{input.description}</p>}
        </div>
      ))}
      {stale.map((name) => (
        <div
          key={name}
          className="flex items-center justify-between gap-2 rounded border border-amber-200 bg-amber-50 px-2 py-1 text-xs text-amber-800"
        >
          <span className="truncate">
            <code>{name}</code> is not an input of {child.data.name}
          </span>
          <button type="button" className={smallButtonClass} onClick={() => set(name, undefined)}>
            Remove
          </button>
        </div>
      ))}
    </div>
  );
}
