"use client";

import { X } from "lucide-react";
import { outcomeNamesOf } from "@/blocks";
import type { ToolInfo } from "@/contract";
import type { CompletionItem } from "../../../graph/reference-completion";
import { inputClass } from "../field-props";
import { WorkflowInputValues } from "../workflow-fields";
import { FunctionToolEditor } from "./function-tool-editor";
import { McpToolParameters } from "./mcp-tool-parameters";
import {
  entryFields,
  entryParams,
  entryProblems,
  entryType,
  MCP_TYPE,
  paramsWithoutInput,
  RUN_FUNCTION_TYPE,
  WORKFLOW_TYPE,
  withField,
  withParam,
} from "./tool-entries";
import { ToolParamInput } from "./tool-param-input";

export interface ToolCardProps {
  entry: unknown;
  index: number;
  info: ToolInfo | undefined;
  /** Whether the server's tool list has arrived (until then a type not found in it is not yet unknown). */
  catalogLoaded: boolean;
  /** The workflow a workflow tool runs, by name, when it is known. */
  workflowName: string | undefined;
  onChange: (entry: unknown) => void;
  onRemove: () => void;
  onRouteOnOutcome: (on: boolean) => void;
  onDirectOutput: (on: boolean) => void;
  referenceItems: () => CompletionItem[];
  envNames: () => string[];
}

function Switch({
  checked,
  onChange,
  children,
  testId,
}: {
  checked: boolean;
  onChange: (on: boolean) => void;
  children: React.ReactNode;
  testId: string;
}) {
  return (
    <label className="flex items-start gap-2 text-xs text-slate-700" data-testid={testId}>
      <input
        type="checkbox"
        className="mt-0.5"
        checked={checked}
        onChange={(event) => onChange(event.target.checked)}
      />
      <span>{children}</span>
    </label>
  );
}

/** What the card says the tool is: the tool type's label, and what it points at. */
function summary(
  entry: unknown,
  info: ToolInfo | undefined,
  catalogLoaded: boolean,
  workflowName: string | undefined,
): { title: string; detail?: string } {
  const type = entryType(entry);
  const params = entryParams(entry);
  if (type === MCP_TYPE) {
    const tools = Array.isArray(params.tools) ? params.tools.join(", ") : "all its tools";
    return { title: `MCP: ${String(params.server ?? "?")}`, detail: tools };
  }
  if (type === WORKFLOW_TYPE)
    return {
      title: "Workflow",
      detail: workflowName ?? (typeof params.workflowId === "string" ? `not found: ${params.workflowId}` : undefined),
    };
  if (type === RUN_FUNCTION_TYPE) return { title: "Custom function" };
  return {
    title: info?.label ?? type,
    detail: info || !catalogLoaded ? undefined : `unknown tool type "${type}": saving is refused`,
  };
}

/**
 * One chosen tool: its name, its pre-fillable settings (the tool type's declared params),
 * a custom function's editor, and the switches: approval, routing on its outcome, and for a
 * workflow tool answering directly.
 */
export function ToolCard(props: ToolCardProps) {
  const { entry, index, info } = props;
  const fields = entryFields(entry);
  const type = entryType(entry);
  const params = entryParams(entry);
  const testId = `tool-card-${index}`;
  const { title, detail } = summary(entry, info, props.catalogLoaded, props.workflowName);
  const unknown = props.catalogLoaded && !info && type !== RUN_FUNCTION_TYPE;
  const hidden = paramsWithoutInput(entry, info?.params);
  const outcomeNames = outcomeNamesOf(entry);
  const routed = fields.routeOnOutcome === true || Array.isArray(fields.routeOnOutcome);
  const problems = entryProblems(entry, info?.params);
  const setParam = (name: string, value: unknown) => props.onChange(withParam(entry, name, value));
  return (
    <div
      className={`space-y-1.5 rounded border p-2 ${unknown ? "border-red-300" : "border-slate-200"}`}
      data-testid={testId}
      data-tool-type={type}
    >
      <div className="flex items-start justify-between gap-2">
        <div className="min-w-0">
          <div className="text-xs font-semibold text-slate-800">{title}</div>
          {detail && <div className="truncate text-[11px] text-slate-500">{detail}</div>}
        </div>
        <button
          type="button"
          aria-label={`Remove tool ${index + 1}`}
          className="rounded p-0.5 text-slate-400 hover:bg-slate-100 hover:text-red-600"
          onClick={props.onRemove}
        >
          <X className="h-3.5 w-3.5" aria-hidden />
        </button>
      </div>
      {type !== MCP_TYPE && (
        <label className="block text-[11px] font-medium text-slate-600">
          Name the model sees{type === RUN_FUNCTION_TYPE ? "" : " (optional)"}
          <input
            className={`${inputClass} mt-0.5 font-mono`}
            value={typeof fields.name === "string" ? fields.name : ""}
            placeholder={type}
            data-testid={`${testId}-name`}
            onChange={(event) => props.onChange(withField(entry, "name", event.target.value.trim()))}
          />
        </label>
      )}
      {info?.params?.map((param) => (
        <div key={param.name}>
          <span className="block text-[11px] font-medium text-slate-600">
            {param.label}
            {param.required ? " *" : ""}
          </span>
          <ToolParamInput
            info={param}
            value={params[param.name]}
            onChange={(value) => setParam(param.name, value)}
            referenceItems={props.referenceItems}
            envNames={props.envNames}
            testId={`${testId}-param-${param.name}`}
          />
          {param.description && <p className="text-[11px] text-slate-500">{param.description}</p>}
        </div>
      ))}
      {type === WORKFLOW_TYPE && typeof params.workflowId === "string" && (
        <div>
          <span className="block text-[11px] font-medium text-slate-600">
            Start inputs: a value here is fixed, the model gives the others
          </span>
          <WorkflowInputValues
            workflowId={params.workflowId}
            value={params.inputs}
            onChange={(inputs) => setParam("inputs", inputs)}
            invalid={false}
            referenceItems={props.referenceItems}
            envNames={props.envNames}
            testId={`${testId}-inputs`}
            inputTestId={(name) => `${testId}-input-${name}`}
            emptyMeans="the model gives it"
          />
        </div>
      )}
      {type === MCP_TYPE && typeof params.server === "string" && (
        <McpToolParameters
          server={params.server}
          tools={
            Array.isArray(params.tools)
              ? params.tools.filter((name): name is string => typeof name === "string")
              : undefined
          }
          testId={testId}
        />
      )}
      {type === RUN_FUNCTION_TYPE && (
        <FunctionToolEditor
          params={params}
          onParam={setParam}
          testId={`${testId}-function`}
          referenceItems={props.referenceItems}
          envNames={props.envNames}
        />
      )}
      {hidden.length > 0 && (
        <p className="text-[11px] text-slate-600" data-testid={`${testId}-more-params`}>
          Also set: <span className="font-mono">{hidden.join(", ")}</span> (see Edit as JSON)
        </p>
      )}
      <Switch
        checked={fields.requireApproval === true}
        onChange={(on) => props.onChange(withField(entry, "requireApproval", on))}
        testId={`tool-require-approval-${index}`}
      >
        Require approval: each call waits until a person approves it
      </Switch>
      {outcomeNames && outcomeNames.length > 0 && (
        <Switch checked={routed} onChange={props.onRouteOnOutcome} testId={`tool-route-outcome-${index}`}>
          Route on <span className="font-medium">{outcomeNames.join(", ")}</span>: a success and an error handle on the
          block, taken by its last call
        </Switch>
      )}
      {type === WORKFLOW_TYPE && (
        <Switch
          checked={fields.directOutput === true}
          onChange={props.onDirectOutput}
          testId={`tool-direct-output-${index}`}
        >
          <span className="font-medium">{props.workflowName ?? "The workflow"}</span> answers directly: its output
          becomes the agent&apos;s answer and the agent stops
        </Switch>
      )}
      {problems.map((problem) => (
        <p key={problem} role="alert" className="text-[11px] text-red-700">
          {problem}
        </p>
      ))}
    </div>
  );
}
