"use client";

import type { ComponentType } from "react";
import type { FieldKind } from "@/blocks";
import type { FieldEditorProps } from "./fields/field-props";
import { AssignmentsField } from "./fields/assignments-field";
import { AskFieldsField, ChoicesField } from "./fields/ask-fields";
import { CodeField } from "./fields/code-field";
import { BranchesField, InputsField, KeyValueField, MetricsField } from "./fields/list-fields";
import { KnowledgeBaseField } from "./fields/knowledge-base-field";
import { PruneToolResultsField, ProviderOptionsField } from "./fields/loop-options-fields";
import { MemoriesField } from "./fields/memories-field";
import { ModelField } from "./fields/model-field";
import { ResponseFormatField } from "./fields/response-format-field";
import { StepRulesField } from "./fields/step-rules-field";
import { JsonField, NumberField, SelectField, TextField, ToggleField } from "./fields/text-fields";
import { ToolsField } from "./fields/tools-field";
import { WorkflowInputsField, WorkflowPickerField } from "./fields/workflow-fields";

/** One editor per field kind; block definitions choose kinds, never components. */
const EDITORS: Record<FieldKind, ComponentType<FieldEditorProps>> = {
  text: TextField,
  prompt: TextField,
  code: CodeField,
  json: JsonField,
  number: NumberField,
  toggle: ToggleField,
  select: SelectField,
  model: ModelField,
  inputs: InputsField,
  branches: BranchesField,
  metrics: MetricsField,
  tools: ToolsField,
  memories: MemoriesField,
  responseFormat: ResponseFormatField,
  knowledgeBases: KnowledgeBaseField,
  keyValue: KeyValueField,
  assignments: AssignmentsField,
  workflow: WorkflowPickerField,
  workflowInputs: WorkflowInputsField,
  choices: ChoicesField,
  askFields: AskFieldsField,
  stepRules: StepRulesField,
  pruneToolResults: PruneToolResultsField,
  providerOptions: ProviderOptionsField,
};

export function FieldEditor(props: FieldEditorProps) {
  const Editor = EDITORS[props.field.kind];
  return <Editor {...props} />;
}
