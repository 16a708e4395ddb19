import "server-only";
import type { BlockHandler } from "@/executor";
import type { ResponseConfig } from "./definition";

/** Its `data` (references already resolved) becomes the run's output; the engine ends the run. */
export const responseHandler: BlockHandler<ResponseConfig> = async ({ config }) => ({
  output: { data: config.data ?? null },
});
