import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import type { ApiRun, ApiSpan } from "@/contract";
import { formatTimeOfDay } from "@/components/ui/date-time";
import { SpanDetails } from "./span-details";

const startedAt = "2026-11-23T17:18:09.171Z";

const run: ApiRun = {
  id: "r1",
  workflowId: "w1",
  status: "succeeded",
  workflowVersion: 3,
  startedAt,
  endedAt: "2026-11-23T17:18:10.000Z",
  durationMs: 829,
  tokens: { prompt: 0, completion: 0, total: 0 },
  cost: null,
  unpriced: false,
  estimated: false,
  trigger: { kind: "editor" },
  deploymentId: null,
  rerunOf: null,
  replayOf: null,
  test: false,
  budget: null,
  input: {},
  output: null,
  error: null,
  queuedAt: startedAt,
  worker: null,
  recoveries: 0,
  spans: [],
};

describe("SpanDetails", () => {
  it("shows when the run started as a time of day to the millisecond, not the milliseconds alone", () => {
    const html = renderToStaticMarkup(<SpanDetails span={null} run={run} />);
    const started = /data-testid="span-started">([^<]*)</.exec(html)?.[1];
    expect(started).toBe(formatTimeOfDay(startedAt));
    expect(started).toMatch(/\d{2}\D\d{2}\D\d{2}\D171/);
  });

  it("says why a span the cancellation cut short ended, as a reason rather than an error", () => {
    const span = {
      id: "s1",
      runId: "r1",
      parentId: null,
      kind: "tool",
      blockId: "code",
      blockName: "Slow code",
      blockType: "function",
      name: "services.fetch",
      status: "cancelled",
      startedAt,
      endedAt: "2026-11-23T17:18:10.000Z",
      durationMs: 829,
      model: null,
      iteration: null,
      tokens: null,
      cost: null,
      unpriced: false,
      estimated: false,
    } as ApiSpan;
    const html = renderToStaticMarkup(<SpanDetails span={span} run={{ ...run, status: "cancelled" }} />);
    expect(html).toContain("The run was cancelled while this was running");
    expect(html).not.toContain('data-testid="span-error"');
  });
});
