import type { z } from "zod";
import type { WorkflowBlock } from "@/contract";
import type { FieldResolver } from "@/executor";
import type { ModelUse } from "./model-use";

/**
 * A block type, defined once. This file and every `definition.ts` are safe to load in the
 * browser: the palette, the inspector, the validator and the executor all read them.
 */

export type BlockCategory = "core" | "ai" | "logic" | "data" | "tools";

/** How the inspector renders one config field. */
export type FieldKind =
  | "text" // one line, references allowed
  | "prompt" // multi-line text with `<` reference and `{{` env completion
  | "code" // JavaScript, or the language another field names (`languageKey`)
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
  /** `code` fields: the field holding the code's language (`javascript` when it is empty). */
  languageKey?: string;
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

/** Something stored in the workspace that a config names by id: checked against the workspace on save. */
export interface StoredReference {
  kind: "knowledge base" | "workflow" | "MCP server";
  /** The id, or a list of ids, as the config holds it (references and `{{ENV}}` values are skipped). */
  value: unknown;
  /** Where in the config, e.g. `knowledgeBaseIds`, `tools[1].params.server`. */
  path: string;
  /** The block itself runs this workflow (not a tool the model may call): running its own workflow is refused on save. */
  runs?: boolean;
}

/** What a test run answers for the block instead of acting; the inspector's "Test sample" section edits these. */
export interface TestSampleSpec {
  /** An HTTP sample answers what the block sends, named as the inspector says it ("the request"). */
  request?: string;
  /** A page sample answers the block's page read. */
  page?: boolean;
  /** The calls of side-effecting tools are answered by name, when the config lists tools (`tools` field). */
  toolCalls?: boolean;
}

/** How many times a container's body runs, as far as its config says before the run (the cost estimate reads it). */
export interface IterationBounds {
  /** Known before the run (a number, or a collection the input fixes). */
  known?: number;
  /** At most, when not known; absent: the estimate's allowance. */
  most?: number;
}

/** A block type's row in docs/CONTRACT.md's block table (`npm run docs:blocks` writes it). */
export interface BlockDocs {
  /** The config keys, `?` after optional ones, with short notes. */
  config: string;
  output: string;
  /** Shown after the type id, e.g. `an extension`. */
  note?: string;
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
  /** Config fields holding expressions (`branches[].expression`): references there become expression literals, and their syntax is checked on save. */
  expressionFields?: ReadonlyArray<string>;
  /** Config fields whose references the block type substitutes itself (the Function block's code). */
  fieldResolvers?: Readonly<Record<string, FieldResolver>>;
  /** How the block spends on models (the cost estimate reads it); absent: it calls none of its own. A test run may answer its call with a recorded answer. */
  modelUse?: ModelUse<z.output<Schema>>;
  /** What a test run answers from the block's samples; absent: a test run treats it as a real run does. */
  testSamples?: TestSampleSpec;
  /** The stored things its config names by id (the config as saved: references unresolved). */
  storedReferences?(config: Readonly<Record<string, unknown>>): StoredReference[];
  /** Containers: how many times the body runs, from the config with what is known before the run resolved. */
  iterations?(config: Readonly<Record<string, unknown>>): IterationBounds;
  /** It pauses the run for a person's answer: the canvas shows the questions waiting on it. */
  waitsForPeople?: boolean;
  /** Its row in the contract's block table. */
  docs: BlockDocs;
}

export const OUT_HANDLE: HandleSpec = { id: "out", label: "out", variant: "default" };
export const ERROR_HANDLE: HandleSpec = { id: "error", label: "error", variant: "error" };
export const STANDARD_HANDLES: HandleSpec[] = [OUT_HANDLE, ERROR_HANDLE];
