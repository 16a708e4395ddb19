"use client";

import type { ToolParamInfo } from "@/contract";
import { useKnowledgeBases } from "@/components/knowledge/use-knowledge";
import type { CompletionItem } from "../../../graph/reference-completion";
import { CompletionInput } from "../completion-input";
import { asString, inputClass } from "../field-props";
import { KeyValueField } from "../list-fields";

interface ParamInputProps {
  info: ToolParamInfo;
  value: unknown;
  onChange: (value: unknown) => void;
  referenceItems: () => CompletionItem[];
  envNames: () => string[];
  testId: string;
}

/** A number as typed, else the text (a reference such as `<Start.count>` is filled in when the agent runs). */
function numberOrText(text: string): unknown {
  const trimmed = text.trim();
  if (trimmed === "") return undefined;
  return /^-?\d+(\.\d+)?$/.test(trimmed) ? Number(trimmed) : text;
}

/** A knowledge base picked by name; a chosen id that is not the workspace's is shown as missing. */
function KnowledgeBaseSelect({ info, value, onChange, testId }: ParamInputProps) {
  const bases = useKnowledgeBases();
  const chosen = typeof value === "string" ? value : "";
  const missing =
    bases.data !== undefined &&
    chosen !== "" &&
    !chosen.includes("<") &&
    !bases.data.some((base) => base.id === chosen);
  return (
    <select
      aria-label={info.label}
      data-testid={testId}
      className={inputClass}
      value={chosen}
      onChange={(event) => onChange(event.target.value || undefined)}
    >
      <option value="">
        {bases.isPending
          ? "Loading knowledge bases…"
          : bases.data?.length === 0
            ? "No knowledge bases yet"
            : "Choose a knowledge base"}
      </option>
      {bases.data?.map((base) => (
        <option key={base.id} value={base.id}>
          {base.name}
        </option>
      ))}
      {missing && <option value={chosen}>Not found: {chosen}</option>}
    </select>
  );
}

/** One pre-fillable setting of a tool entry, edited by its kind; text accepts `<references>` and `{{SECRETS}}`. */
export function ToolParamInput(props: ParamInputProps) {
  const { info, value, onChange, testId } = props;
  switch (info.kind) {
    case "knowledgeBase":
      return <KnowledgeBaseSelect {...props} />;
    case "select":
      return (
        <select
          aria-label={info.label}
          data-testid={testId}
          className={inputClass}
          value={asString(value)}
          onChange={(event) => onChange(event.target.value || undefined)}
        >
          <option value="">{info.required ? "Choose" : "(not fixed)"}</option>
          {info.options?.map((option) => (
            <option key={option} value={option}>
              {option}
            </option>
          ))}
        </select>
      );
    case "keyValue":
      return (
        <KeyValueField
          blockId=""
          field={{ key: testId.replace(/^field-/, ""), label: info.label, kind: "keyValue" }}
          value={value}
          onChange={onChange}
          invalid={false}
          referenceItems={props.referenceItems}
          envNames={props.envNames}
        />
      );
    case "number":
      return (
        <CompletionInput
          value={asString(value)}
          onChange={(text) => onChange(numberOrText(text))}
          referenceItems={props.referenceItems}
          envNames={props.envNames}
          label={info.label}
          testId={testId}
          placeholder="a number or a <reference>"
        />
      );
    default:
      return (
        <CompletionInput
          value={asString(value)}
          onChange={(text) => onChange(text === "" ? undefined : text)}
          referenceItems={props.referenceItems}
          envNames={props.envNames}
          label={info.label}
          testId={testId}
          placeholder={info.required ? "required" : "not fixed: the model chooses"}
        />
      );
  }
}
