"use client";

import { useState } from "react";
import { useQuery } from "@tanstack/react-query";
import { api } from "@/contract";
import { useWorkspace } from "@/components/auth/workspace-context";
import { formatDateTime } from "@/components/ui/date-time";
import { useEditorStore } from "@/components/editor/store";

/** Beside the Deploy button: the suite a deploy requires, and the latest evaluation of the draft by it. */
export function GateResult({ workflowId }: { workflowId: string }) {
  const suiteId = useEditorStore((state) => state.meta.settings?.requireEvaluation);
  const latest = useQuery({
    queryKey: ["evaluations", workflowId, "gate", suiteId],
    queryFn: async () =>
      (
        await api.call("listEvaluations", { params: { id: workflowId }, query: { suiteId: suiteId! } })
      ).evaluations.find((evaluation) => evaluation.version === "draft" && evaluation.summary !== null) ?? null,
    enabled: suiteId !== undefined,
  });
  if (!suiteId) return null;
  const evaluation = latest.data;
  return (
    <div className="text-xs" data-testid="gate-result">
      <span className="text-slate-600">Deploying runs the required evaluation suite first. </span>
      {evaluation ? (
        <span className={evaluation.summary!.passed ? "text-green-700" : "text-red-700"}>
          Latest on the draft ({formatDateTime(evaluation.createdAt)}):{" "}
          {evaluation.summary!.passed ? "passed" : "failed"}, {Math.round(evaluation.summary!.passRate * 100)}% of cases
          passed
          {evaluation.summary!.failures.length > 0 ? ` (${evaluation.summary!.failures.join("; ")})` : ""}
        </span>
      ) : (
        <span className="text-slate-600">The draft has not been evaluated yet.</span>
      )}
    </div>
  );
}

/** An admin's way past a refused gate: deploy anyway, with a note saying why (kept on the deployment). */
export function GateOverride({ onOverride }: { onOverride: (note: string) => void }) {
  const acting = useWorkspace();
  const [reason, setReason] = useState("");
  const role = acting?.workspace.role;
  if (role !== "admin" && role !== "owner")
    return <p className="text-xs text-slate-600">An admin may deploy it anyway, with a note.</p>;
  return (
    <div className="flex items-center gap-2" data-testid="gate-override">
      <input
        className="input flex-1 text-xs"
        placeholder="Why deploy anyway (recorded on the deployment)"
        aria-label="Override note"
        data-testid="gate-override-note"
        value={reason}
        onChange={(event) => setReason(event.target.value)}
      />
      <button
        type="button"
        className="btn-secondary text-xs"
        data-testid="gate-override-submit"
        disabled={!reason.trim()}
        onClick={() => onOverride(reason.trim())}
      >
        Deploy anyway
      </button>
    </div>
  );
}
