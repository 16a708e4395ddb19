import "server-only";
import { getRuntime } from "@/lib/runtime/runtime";
import { approvalEndpoints } from "./approval-endpoints";

/** The approval endpoints over the app's runtime: a decision reaches the run wherever it executes. */
export const appApprovalEndpoints = approvalEndpoints(() => {
  const runtime = getRuntime();
  return { runs: runtime.runs, repositories: runtime.repositories };
});
