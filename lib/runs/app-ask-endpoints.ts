import "server-only";
import { getRuntime } from "@/lib/runtime/runtime";
import { askEndpoints } from "./ask-endpoints";

/** The ask endpoints over the app's runtime: an answer reaches the run wherever it executes. */
export const appAskEndpoints = askEndpoints(() => {
  const runtime = getRuntime();
  return { runs: runtime.runs, repositories: runtime.repositories };
});
