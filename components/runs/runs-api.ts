import { apiFetch } from "@/components/workflows/api-client";
import type { EventError, SpanRecord } from "@/executor/events";
import type { Cost, TokenCounts } from "@/executor/usage";

/** Browser-side calls to the run endpoints (CONTRACT.md section 5, lib/runs/approvals.md). */

export const RUN_STATUSES = ["queued", "running", "paused", "succeeded", "failed", "cancelled"] as const;
export type RunStatus = (typeof RUN_STATUSES)[number];

/** Tokens and cost as the API spreads them on runs and spans; cost null (and unpriced) when no price is known. */
interface ApiFigures {
  cost: Cost | null;
  unpriced: boolean;
  estimated: boolean;
}

export interface RunSummary extends ApiFigures {
  id: string;
  workflowId: string;
  status: RunStatus;
  startedAt: string;
  endedAt: string | null;
  durationMs: number | null;
  tokens: TokenCounts;
}

/** A span of GET /api/runs/:id (lib/runs/run-view.ts toApiSpan). */
export type ApiSpan = Omit<SpanRecord, "usage" | "model" | "iteration"> &
  ApiFigures & {
    model: string | null;
    iteration: number[] | null;
    tokens: TokenCounts | null;
  };

export interface ApiRun extends RunSummary {
  input: Record<string, unknown>;
  output: unknown;
  error: EventError | null;
  spans: ApiSpan[];
}

export const LIVE_STATUSES: readonly RunStatus[] = ["queued", "running", "paused"];
export const END_STATUSES: readonly RunStatus[] = ["succeeded", "failed", "cancelled"];

const runPath = (runId: string) => `/api/runs/${encodeURIComponent(runId)}`;

export const runsApi = {
  start: (workflowId: string, input: Record<string, unknown>) =>
    apiFetch<{ runId: string }>(`/api/workflows/${encodeURIComponent(workflowId)}/runs`, { method: "POST", body: JSON.stringify({ input }) }),
  list: (workflowId: string, statuses: readonly RunStatus[] = []) => {
    const query = statuses.length ? `?status=${statuses.join(",")}` : "";
    return apiFetch<{ runs: RunSummary[] }>(`/api/workflows/${encodeURIComponent(workflowId)}/runs${query}`).then((body) => body.runs);
  },
  get: (runId: string) => apiFetch<ApiRun>(runPath(runId)),
  cancel: (runId: string) => apiFetch<unknown>(`${runPath(runId)}/cancel`, { method: "POST" }),
  decide: (runId: string, toolCallId: string, decision: { approved: boolean; reason?: string }) =>
    apiFetch<unknown>(`${runPath(runId)}/approvals/${encodeURIComponent(toolCallId)}`, { method: "POST", body: JSON.stringify(decision) }),
  eventsUrl: (runId: string) => `${runPath(runId)}/events`,
};
