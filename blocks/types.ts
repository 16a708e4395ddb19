import type { z } from "zod";
import type { WorkflowBlock } from "@/contract";

/**
 * A block type, defined once. This file and every `definition.ts` are safe to load in the
 * browser: the palette, the inspector, the validator and the executor all read them.
 */

export type BlockCategory = "core" | "ai" | "logic" | "data" | "tools";

/** How the inspector renders one config field. */
export type FieldKind =
  | "text" // one line, references allowed
  | "prompt" // multi-line text with `<` reference and `{{` env completion
  | "code" // JavaScript
  | "json" // free JSON value, references allowed
  | "number"
  | "toggle"
  | "select"
  | "model" // model picker
  | "inputs" // start block input list
  | "branches" // condition branches
  | "metrics" // evaluator metrics
  | "tools" // agent tools: the tool picker
  | "memories" // agent memories: a message list, or one reference to a list
  | "responseFormat" // a JSON Schema of an object: property rows or JSON, with an example
  | "knowledgeBases"
  | "assignments" // Set Variables: name = value or expression
  | "workflow" // another workflow of the workspace (not the one being edited)
  | "workflowInputs" // one value per start input of the workflow chosen in `workflowId`
  | "choices" // ask choices: id and label, each an output handle
  | "askFields" // ask fields: name, type and label
  | "keyValue" // headers and the like
  | "stepRules" // agent: per-step tools, tool choice and temperature
  | "pruneToolResults" // agent: when old tool results are replaced by a note
  | "providerOptions"; // agent: the options the chosen model accepts

export interface FieldHint {
  key: string;
  label: string;
  kind: FieldKind;
  placeholder?: string;
  help?: string;
  /**
   * What the field needs, in plain words ("Write the routing instructions"): shown as a gentle
   * hint on a fresh block and as the message when a required field is left empty. Every field
   * the config schema requires has one (blocks/config-issues.test.ts checks).
   */
  needs?: string;
  options?: ReadonlyArray<{ value: string; label: string }>;
  /** Only show when another field has one of these values, e.g. loop `count` when kind is `for`. */
  showWhen?: { key: string; equals: ReadonlyArray<string> };
}

/** An output field, for reference completion and docs (`path` is dotted, `[]` for arrays). */
export interface OutputField {
  path: string;
  type: "string" | "number" | "boolean" | "object" | "array" | "any";
  description?: string;
}

export interface HandleSpec {
  id: string;
  label: string;
  /** Drawn differently on the canvas. */
  variant: "default" | "error" | "branch" | "body";
}

export interface BlockDefinition<Schema extends z.ZodType = z.ZodType> {
  type: string;
  label: string;
  /** A lucide icon name. */
  icon: string;
  category: BlockCategory;
  description: string;
  configSchema: Schema;
  fields: ReadonlyArray<FieldHint>;
  outputs: ReadonlyArray<OutputField>;
  /** Whether edges may come into the block (false for start). */
  acceptsInput: boolean;
  /** Source handles for a given block (condition branches depend on the config). */
  sourceHandles(block: WorkflowBlock): HandleSpec[];
  container?: "loop" | "parallel";
  routing?: "all" | "branch" | "route";
  /** With routing `all`: the handles a successful output leaves by (default `out`); see BlockTypeInfo.takenHandles. */
  takenHandles?(block: WorkflowBlock, output: Readonly<Record<string, unknown>>): ReadonlyArray<string>;
  terminal?: boolean;
  entry?: boolean;
  /** The workflow variables the block assigns; see BlockTypeInfo.assignsVariables. */
  assignsVariables?(block: WorkflowBlock): ReadonlyArray<string>;
  /** Shown in the palette; hidden types can still be loaded. */
  hidden?: boolean;
}

export const OUT_HANDLE: HandleSpec = { id: "out", label: "out", variant: "default" };
export const ERROR_HANDLE: HandleSpec = { id: "error", label: "error", variant: "error" };
export const STANDARD_HANDLES: HandleSpec[] = [OUT_HANDLE, ERROR_HANDLE];
