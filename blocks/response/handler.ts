import type { BlockHandler } from "@/executor/handler";

/** Its `data` (references already resolved) becomes the run's output; the engine ends the run. */
export const responseHandler: BlockHandler = async ({ config }) => ({ output: { data: config.data ?? null } });
