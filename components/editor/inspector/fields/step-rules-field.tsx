"use client";

import { configuredToolNames, TOOL_CHOICE_MODES, type StepRule } from "@/blocks";
import { useEditorStore } from "../../store";
import { inputClass, asArray, type FieldEditorProps } from "./field-props";

/** A box as wide as a few digits: the shared class without its full width. */
const shortInputClass = inputClass.replace("w-full", "");
import { RowList } from "./row-list";

/** A rule as the editor holds it: the schema's, with `fromStep` possibly left out (it defaults to 1). */
type RuleRow = Omit<StepRule, "fromStep"> & { fromStep?: number };

const FORCE_PREFIX = "tool:";

/** The select's value for a tool choice: a mode, or `tool:<name>` for a forced tool. */
function choiceValue(choice: RuleRow["toolChoice"]): string {
  if (choice === undefined) return "";
  return typeof choice === "string" ? choice : `${FORCE_PREFIX}${choice.tool}`;
}

function choiceOf(value: string): RuleRow["toolChoice"] {
  if (value === "") return undefined;
  if (value.startsWith(FORCE_PREFIX)) return { tool: value.slice(FORCE_PREFIX.length) };
  return value as (typeof TOOL_CHOICE_MODES)[number];
}

/** A whole number typed in a box, or undefined when the box is empty or holds something else. */
function wholeNumber(text: string): number | undefined {
  const trimmed = text.trim();
  return /^\d+$/.test(trimmed) ? Number(trimmed) : undefined;
}

function useAgentToolNames(blockId: string): string[] | null {
  const tools = useEditorStore((state) => state.nodes.find((node) => node.id === blockId)?.data.config.tools);
  return configuredToolNames(tools);
}

const CHOICE_LABELS: Record<(typeof TOOL_CHOICE_MODES)[number], string> = {
  auto: "model decides",
  required: "must call a tool",
  none: "no tool calls",
};

/**
 * `stepRules`: one row per range of steps of the agent's tool loop, with the tools offered there
 * (checkboxes of the agent's tools; none ticked: all), the tool choice, a temperature and an output cap.
 */
export function StepRulesField(props: FieldEditorProps) {
  const toolNames = useAgentToolNames(props.blockId);
  const rows = asArray<RuleRow>(props.value);
  return (
    <RowList<RuleRow>
      rows={rows}
      onChange={(next) => props.onChange(next.length > 0 ? next : undefined)}
      newRow={(existing) => {
        const last = existing.at(-1);
        const from = last ? (last.toStep ?? last.fromStep ?? 1) + 1 : 1;
        return { fromStep: from, toStep: from };
      }}
      addLabel="Add step rule"
      testId={`field-${props.field.key}`}
      renderRow={(row, update, index) => (
        <>
          <div className="flex items-center gap-1 text-xs text-slate-600">
            <span>Steps</span>
            <input
              aria-label={`Rule ${index + 1} from step`}
              className={`${shortInputClass} w-14`}
              inputMode="numeric"
              value={row.fromStep ?? 1}
              onChange={(event) => update({ fromStep: wholeNumber(event.target.value) ?? 1 })}
            />
            <span>to</span>
            <input
              aria-label={`Rule ${index + 1} to step`}
              className={`${shortInputClass} w-14`}
              inputMode="numeric"
              placeholder="last"
              value={row.toStep ?? ""}
              onChange={(event) => update({ toStep: wholeNumber(event.target.value) })}
            />
          </div>
          <ToolChecks row={row} toolNames={toolNames} index={index} update={update} />
          <div className="flex items-center gap-1">
            <select
              aria-label={`Rule ${index + 1} tool choice`}
              className={`${shortInputClass} min-w-0 flex-1`}
              value={choiceValue(row.toolChoice)}
              onChange={(event) => update({ toolChoice: choiceOf(event.target.value) })}
            >
              <option value="">tool choice: as the agent</option>
              {TOOL_CHOICE_MODES.map((mode) => (
                <option key={mode} value={mode}>
                  {CHOICE_LABELS[mode]}
                </option>
              ))}
              {(toolNames ?? []).map((name) => (
                <option key={name} value={`${FORCE_PREFIX}${name}`}>
                  must call {name}
                </option>
              ))}
            </select>
            <input
              aria-label={`Rule ${index + 1} temperature`}
              className={`${shortInputClass} w-16`}
              inputMode="decimal"
              placeholder="temp."
              defaultValue={row.temperature ?? ""}
              onChange={(event) => {
                const raw = event.target.value.trim();
                const number = Number(raw);
                update({ temperature: raw === "" || !Number.isFinite(number) ? undefined : number });
              }}
            />
            <input
              aria-label={`Rule ${index + 1} max output tokens`}
              className={`${shortInputClass} w-20`}
              inputMode="numeric"
              placeholder="max tok."
              value={row.maxOutputTokens ?? ""}
              onChange={(event) => {
                const tokens = wholeNumber(event.target.value);
                update({ maxOutputTokens: tokens !== undefined && tokens > 0 ? tokens : undefined });
              }}
            />
          </div>
        </>
      )}
    />
  );
}

function ToolChecks({
  row,
  toolNames,
  index,
  update,
}: {
  row: RuleRow;
  toolNames: string[] | null;
  index: number;
  update: (patch: Partial<RuleRow>) => void;
}) {
  // Names a whole MCP server gives are only known when the agent runs: typed, comma-separated.
  if (toolNames === null) {
    return (
      <input
        aria-label={`Rule ${index + 1} active tools`}
        className={inputClass}
        placeholder="tools offered (comma-separated; empty: all)"
        defaultValue={(row.activeTools ?? []).join(", ")}
        onChange={(event) => {
          const names = event.target.value
            .split(",")
            .map((name) => name.trim())
            .filter(Boolean);
          update({ activeTools: names.length > 0 ? names : undefined });
        }}
      />
    );
  }
  if (toolNames.length === 0)
    return <p className="text-xs text-slate-500">Add tools to the agent to choose them per step.</p>;
  const active = row.activeTools ?? [];
  const stale = active.filter((name) => !toolNames.includes(name));
  const toggle = (name: string, on: boolean) => {
    const next = on ? [...active, name] : active.filter((each) => each !== name);
    update({ activeTools: next.length > 0 ? next : undefined });
  };
  return (
    <fieldset className="flex flex-wrap gap-x-3 gap-y-0.5 text-xs" aria-label={`Rule ${index + 1} active tools`}>
      <legend className="sr-only">Tools offered on these steps</legend>
      {[...toolNames, ...stale].map((name) => (
        <label
          key={name}
          className={`flex items-center gap-1 ${stale.includes(name) ? "text-red-600" : "text-slate-700"}`}
        >
          <input
            type="checkbox"
            checked={active.includes(name)}
            onChange={(event) => toggle(name, event.target.checked)}
          />
          {name}
          {stale.includes(name) && " (not a tool of this agent)"}
        </label>
      ))}
      {active.length === 0 && <span className="text-slate-500">none ticked: all tools</span>}
    </fieldset>
  );
}
