"use client";

import { FlaskConical } from "lucide-react";
import { useQuery } from "@tanstack/react-query";
import { useEditorStore } from "@/components/editor/store";
import { api, type SimulationSource } from "@/contract";

const SIMULATED_LABELS: Record<SimulationSource, { label: string; title: string }> = {
  sample: { label: "simulated", title: "Test run: not sent; answered from the block's test sample" },
  "no-sample": {
    label: "simulated: no sample",
    title: "Test run: not sent, and the block has no test sample for it; the result says so",
  },
  recorded: {
    label: "recorded answer",
    title: "Test run: no model was called; the block returned the recorded answer chosen in its inspector",
  },
};

/** On a span of a test run: its call was not made (a sample, no sample, or a recorded answer took its place). */
export function SimulatedBadge({ source, testId }: { source: SimulationSource | undefined; testId?: string }) {
  if (!source) return null;
  const { label, title } = SIMULATED_LABELS[source];
  const colours = source === "no-sample" ? "bg-amber-100 text-amber-800" : "bg-teal-100 text-teal-800";
  return (
    <span
      className={`shrink-0 rounded px-1 text-[10px] font-medium ${colours}`}
      title={title}
      data-testid={testId}
      data-simulated={source}
    >
      {label}
    </span>
  );
}

/** "Test run" on a run whose side effects were simulated. */
export function TestRunBadge({ test, testId }: { test: boolean | undefined; testId?: string }) {
  if (!test) return null;
  return (
    <span
      className="inline-flex items-center gap-0.5 rounded bg-teal-50 px-1.5 py-0.5 text-xs font-medium text-teal-800"
      title="A test run: API, web, fetch and side-effecting tool calls were answered from the blocks' test samples, not sent; models ran unless a block used a recorded answer"
      data-testid={testId}
    >
      <FlaskConical className="h-3 w-3" aria-hidden /> Test run
    </span>
  );
}

/** In the run panel's header: the followed run is a test run. */
export function FollowedTestRun() {
  const runId = useEditorStore((state) => state.run.view.runId);
  const run = useQuery({ queryKey: ["run", runId], queryFn: () => api.runs.get(runId!), enabled: runId !== null });
  return <TestRunBadge test={run.data?.id === runId && run.data?.test} testId="run-test" />;
}
