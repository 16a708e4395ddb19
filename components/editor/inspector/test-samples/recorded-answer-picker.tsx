"use client";

import { useQuery } from "@tanstack/react-query";
import { api, type RecordedAnswer } from "@/contract";
import { useEditorStore } from "../../store";
import { inputClass } from "../fields/field-props";
import { useTestingPart } from "./use-testing";

/** How many of the workflow's latest succeeded runs are searched for the block's outputs. */
const RUNS_SEARCHED = 8;

/** The block's outputs in the workflow's latest succeeded runs (a model's real answers, not recorded ones replayed). */
async function recentOutputs(workflowId: string, blockId: string): Promise<RecordedAnswer[]> {
  const runs = (await api.runs.list(workflowId, ["succeeded"])).slice(0, RUNS_SEARCHED);
  const details = await Promise.all(runs.map((run) => api.runs.get(run.id)));
  return details.flatMap((run) =>
    run.spans
      .filter(
        (span) =>
          span.kind === "block" &&
          span.blockId === blockId &&
          span.status === "succeeded" &&
          !span.simulated &&
          span.output,
      )
      .map((span) => ({ runId: run.id, spanId: span.id, output: span.output as Record<string, unknown> })),
  );
}

function preview(answer: RecordedAnswer): string {
  const { content, selectedRoute } = answer.output;
  const text =
    typeof content === "string"
      ? content
      : typeof selectedRoute === "string"
        ? `route: ${selectedRoute}`
        : JSON.stringify(answer.output);
  return text.length > 60 ? `${text.slice(0, 60)}…` : text;
}

/**
 * "Use recorded answer": in a test run the block returns one of its outputs from an earlier run
 * of this workflow and calls no model (its trace span says "recorded answer"). The output is
 * copied into the block's test samples, so it stays when that run is deleted.
 */
export function RecordedAnswerPicker({ blockId }: { blockId: string }) {
  const workflowId = useEditorStore((state) => state.workflowId);
  const [recorded, setRecorded] = useTestingPart(blockId, "recorded");
  const answers = useQuery({
    queryKey: ["recorded-answers", workflowId, blockId],
    queryFn: () => recentOutputs(workflowId, blockId),
    staleTime: 10_000,
  });
  const options = answers.data ?? [];
  const chosen = recorded ? `${recorded.runId}/${recorded.spanId}` : "";
  const shown =
    recorded && !options.some((answer) => answer.spanId === recorded.spanId) ? [recorded, ...options] : options;
  return (
    <label className="block text-[11px] text-slate-600" data-testid="test-sample-recorded">
      Model in a test run
      <select
        className={`${inputClass} mt-0.5`}
        value={chosen}
        data-testid="test-sample-recorded-select"
        onChange={(event) =>
          setRecorded(shown.find((answer) => `${answer.runId}/${answer.spanId}` === event.target.value))
        }
      >
        <option value="">Call the model (no recorded answer)</option>
        {shown.map((answer) => (
          <option key={answer.spanId} value={`${answer.runId}/${answer.spanId}`}>
            Use recorded answer of run {answer.runId.slice(-8)}: {preview(answer)}
          </option>
        ))}
      </select>
      {answers.isLoading && (
        <span className="text-slate-400">Looking for this block&apos;s answers in recent runs…</span>
      )}
      {answers.isError && <span className="text-red-700">Could not read recent runs: {answers.error.message}</span>}
      {answers.data && shown.length === 0 && (
        <span className="text-slate-400">No succeeded run of this workflow has an answer of this block yet.</span>
      )}
    </label>
  );
}
