import { getRuntime } from "@/lib/runtime/runtime";
import { approvalsHttp } from "./approvals-http";

/** The approval endpoints over the app's runtime: approvals live in this process's memory. */
export const appApprovalsHttp = approvalsHttp(() => {
  const runtime = getRuntime();
  return { runs: runtime.runs, repositories: runtime.repositories };
});
