import { getRuntime } from "@/lib/runtime/runtime";
import { runHttp } from "./run-http";

/** The run endpoints over the app's runtime (one per process). */
export const appRunHttp = runHttp(() => {
  const runtime = getRuntime();
  return { runs: runtime.runs, repositories: runtime.repositories };
});
