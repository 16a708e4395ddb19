import type { WorkflowBlock } from "@/contract";
import type { ConfigParse } from "@/core";
import type { ReferenceToken } from "./reference-syntax";

/** Substitutes the references in one config string its own way; `resolve` throws when one cannot be resolved. */
/** Substitutes the references of one config field; `config` is the block's whole config as written (a Function's `language`). */
export type FieldResolver = (
  text: string,
  resolve: (reference: ReferenceToken) => unknown,
  config: Readonly<Record<string, unknown>>,
) => string;

/**
 * What the executor needs to know about a block type. The block registry (blocks/) supplies one
 * per type; the executor never imports the registry itself.
 */
export interface BlockTypeInfo<Config = unknown> {
  type: string;
  /** Loop and parallel blocks contain child blocks and run them per iteration or branch. */
  container?: "loop" | "parallel";
  /**
   * How the block chooses among its outgoing edges: `all` follows every `out` edge, `branch`
   * follows the one `branch:<id>` handle named in its output's `selectedBranch`, `route` follows
   * the one `out` edge whose target is its output's `selectedRoute`.
   */
  routing?: "all" | "branch" | "route";
  /**
   * With routing `all`: the handles a successful output leaves by (default `out` alone), for blocks
   * whose handles depend on what happened, such as an ask's `choice:<id>` or an agent's tool
   * outcomes. The canvas reads the same function to draw which edges a run took.
   */
  takenHandles?(block: WorkflowBlock, output: Readonly<Record<string, unknown>>): ReadonlyArray<string>;
  /**
   * A block that sets workflow variables (Set Variables): the names its config assigns, for the
   * save-time reference check. Its output, when it completes, is exactly the values it assigned
   * (`{ name: value }`), which the blocks downstream of it read as `<variable.name>`.
   */
  assignsVariables?(block: WorkflowBlock): ReadonlyArray<string>;
  /** Ends the run with its output's `data` (the response block). */
  terminal?: boolean;
  /** The start block: the run's entry, its output is the run input. */
  entry?: boolean;
  /** Source handles this block offers for its config (always includes `out` and `error`). */
  sourceHandles(block: WorkflowBlock): string[];
  /**
   * Config fields holding expressions, array items written `[]` (condition: `branches[].expression`).
   * References there are inserted as expression literals, never as raw text, and are checked for
   * syntax at save time.
   */
  expressionFields?: ReadonlyArray<string>;
  /**
   * Top-level config fields whose references the block type substitutes itself, for example the
   * function block's `code`, where values must become JavaScript literals rather than raw text.
   */
  fieldResolvers?: Readonly<Record<string, FieldResolver>>;
  /**
   * Parses a config against the type's schema: the value its handler gets (defaults applied), or
   * problems with paths inside `config`. The save path uses the problems; the engine parses each
   * block's config once, after resolving its references, and hands the value to the handler.
   */
  parseConfig(config: unknown): ConfigParse<Config>;
  /**
   * A config path (`prompt`, `branches[0].expression`) as people name it: the field's label in the
   * inspector. Messages use it; `details[].path` keeps the path. Without it the path is shown.
   */
  describeConfigPath?(path: string): string;
}

export type BlockTypeLookup = (type: string) => BlockTypeInfo | undefined;
