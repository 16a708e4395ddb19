import "server-only";
import { getRuntime } from "@/lib/runtime/runtime";
import { runEndpoints } from "./run-endpoints";

/** The run endpoints over the app's runtime (one per process). */
export const appRunEndpoints = runEndpoints(() => {
  const runtime = getRuntime();
  return { runs: runtime.runs, repositories: runtime.repositories };
});
