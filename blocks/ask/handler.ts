import "server-only";
import { BlockExecutionError, type BlockHandler } from "@/executor";
import type { AskConfig } from "./definition";

/**
 * Waits for a person's answer (docs/CONTRACT.md section 10) and outputs it: the engine parks the
 * run while nothing else can go on, and the answer, given through the API, the editor or the
 * chat, resumes it here. The output's choice picks the handle the run leaves by.
 */
export const askHandler: BlockHandler<AskConfig> = async ({ config, context }) => {
  if (!context.waitForAnswer)
    throw new BlockExecutionError(`Block '${context.block.name}' cannot wait for a person in this run`);
  const { question, choices, allowText, fields, timeoutMs } = config;
  const answer = await context.waitForAnswer(
    { question, choices, allowText, fields, ...(timeoutMs === undefined ? {} : { timeoutMs }) },
    context.signal,
  );
  return { output: { ...answer } };
};
