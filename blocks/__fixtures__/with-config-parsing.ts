import { bindHandler, invalidConfigError, type BlockCallArgs, type BlockHandler, type BlockResult } from "@/executor";
import type { BlockConfig, BlockType } from "../definitions";
import { blockTypeInfo } from "../type-info";

/**
 * A handler as the engine calls it, for handler tests: the config, written as a workflow holds
 * it, is parsed by the block type first (defaults applied), and an invalid one fails with the
 * engine's `invalid_config` error naming the field.
 */
export function withConfigParsing<T extends BlockType>(type: T, handler: BlockHandler<BlockConfig<T>>) {
  const bound = bindHandler(blockTypeInfo(type), handler);
  return async ({ config, ...args }: BlockCallArgs & { config: unknown }): Promise<BlockResult> => {
    const prepared = bound.prepare(config);
    if (!prepared.ok) throw invalidConfigError(args.context.block.name, prepared.issues, false);
    return prepared.value(args);
  };
}
