import "server-only";
import type { BlockHandler } from "@/executor";
import type { StartConfig } from "./definition";
import { checkedRunInput } from "./run-input";

/** The start block's output is the run input, checked against the declared inputs (run-input.ts). */
export const startHandler: BlockHandler<StartConfig> = async ({ config, context }) => ({
  output: checkedRunInput(config, context.runInput ?? {}),
});
