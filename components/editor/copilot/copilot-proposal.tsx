"use client";

import type { CopilotAnswer } from "@/contract";
import { formatDollars } from "@/components/ui/format";

/** A proposal in words: its changes, its refused edits, the run cost before and after, Accept and Reject. */
export function CopilotProposalView({
  answer,
  onAccept,
  onReject,
}: {
  answer: CopilotAnswer;
  onAccept: () => void;
  onReject: () => void;
}) {
  const { proposal, refused, estimate } = answer;
  return (
    <>
      {proposal && (
        <div className="flex flex-col gap-1" data-testid="copilot-changes">
          <h3 className="text-xs font-medium uppercase text-slate-500">Proposed changes</h3>
          <ul className="list-disc pl-5">
            {proposal.changes.map((change, index) => (
              <li key={index}>{change.summary}</li>
            ))}
          </ul>
          {proposal.diff.blocksChanged.length > 0 && (
            <p className="text-xs text-slate-600">
              Changed fields:{" "}
              {proposal.diff.blocksChanged.map((block) => `${block.name}: ${block.fields.join(", ")}`).join("; ")}
            </p>
          )}
        </div>
      )}
      {refused.length > 0 && (
        <details className="text-xs text-slate-600" data-testid="copilot-refused">
          <summary>
            {refused.length} edit{refused.length === 1 ? "" : "s"} refused by the checks
            {answer.stepCapReached ? " (stopped at the step limit: some of the request may be undone)" : ""}
          </summary>
          <ul className="list-disc pl-5">
            {refused.map((refusal, index) => (
              <li key={index} className="whitespace-pre-wrap">
                {refusal.tool}: {refusal.reason}
              </li>
            ))}
          </ul>
        </details>
      )}
      {estimate && (
        <p className="text-xs text-slate-600" data-testid="copilot-estimate">
          Estimated run cost: {formatDollars(estimate.before.total.expected)} now,{" "}
          {formatDollars(estimate.after.total.expected)} with the proposal (worst case{" "}
          {formatDollars(estimate.after.total.high)})
        </p>
      )}
      {proposal && (
        <div className="flex gap-2">
          <button type="button" className="btn-primary" onClick={onAccept} data-testid="copilot-accept">
            Accept
          </button>
          <button type="button" className="btn-secondary" onClick={onReject} data-testid="copilot-reject">
            Reject
          </button>
        </div>
      )}
    </>
  );
}
