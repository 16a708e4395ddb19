import type { WorkflowBlock } from "@/contract";

/**
 * How a block type spends on models, as the cost estimate reads it (lib/estimates): the model it
 * calls, the texts it sends, its most model calls per execution and the output cap of each call.
 * The config given has its references resolved as far as they can be before a run.
 */
export interface ModelUse<Config = Record<string, unknown>> {
  model(config: Config): string;
  /**
   * The prompt's texts (system, memories, user), in the order they are sent. `targets`: the blocks
   * the block's `out` edges reach; `typeDescription`: a block type's description (a router names its candidates' types).
   */
  promptTexts(
    config: Config,
    targets: readonly WorkflowBlock[],
    typeDescription: (type: string) => string | undefined,
  ): string[];
  /** Model calls one execution makes at most (a tool loop's iterations, a repair attempt). */
  maxCalls(config: Config): number;
  /** The output cap of each call, when the config sets one. */
  maxOutputTokens(config: Config): number | undefined;
}
