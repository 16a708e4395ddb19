"use client";

import { memo, useEffect, useRef, useState } from "react";
import {
  isLive,
  useEditorStore,
  type ApprovalEntry,
  type AskEntry,
  type ConsoleEntry,
} from "@/components/editor/store";
import { queueLabel } from "@/components/ui/run-status-text";
import { formatDuration } from "@/components/ui/format";
import { runClock, waitReason, type StoredRunFacts } from "./run-clock";
import { useNow } from "./use-now";
import { useFollowedRun } from "./use-followed-run";
import { AskForm } from "./ask-form";
import { useRunActions } from "./use-run-actions";

const TYPE_STYLES: Partial<Record<ConsoleEntry["type"], string>> = {
  "block.failed": "text-red-700",
  "run.failed": "text-red-700 font-medium",
  "run.completed": "text-emerald-700 font-medium",
  "run.cancelled": "text-orange-700 font-medium",
  "block.skipped": "text-slate-400",
  "block.cancelled": "text-orange-700",
  "tool.approval.requested": "text-amber-700",
  "ask.requested": "text-sky-700",
};

function ApprovalRequest({ approval, live, blockName }: { approval: ApprovalEntry; live: boolean; blockName: string }) {
  const actions = useRunActions();
  const readOnly = useEditorStore((state) => !state.mayAnswer);
  const [reason, setReason] = useState("");
  const [sending, setSending] = useState(false);
  const decide = async (approved: boolean) => {
    setSending(true);
    await actions.decide(approval.toolCallId, approved, reason.trim() || undefined);
    setSending(false);
  };
  return (
    <div
      className="my-1 rounded border border-amber-300 bg-amber-50 p-2 text-xs"
      data-testid={`approval-${approval.toolCallId}`}
    >
      <p>
        <strong>{blockName}</strong> wants to call <code className="font-semibold">{approval.toolName}</code> with
      </p>
      <pre className="my-1 max-h-32 overflow-auto rounded bg-white p-1 font-mono">
        {JSON.stringify(approval.arguments, null, 2)}
      </pre>
      {approval.decision ? (
        <p data-testid="approval-decision">
          {approval.decision.approved
            ? "Approved"
            : `Denied${approval.decision.reason ? `: ${approval.decision.reason}` : ""}`}
        </p>
      ) : live && readOnly ? (
        <p className="text-slate-500">Waiting for an editor of this workspace to approve or deny.</p>
      ) : live ? (
        <div className="flex items-center gap-2">
          <input
            className="flex-1 rounded border border-slate-300 px-1 py-0.5"
            placeholder="Reason (optional, sent to the model when denied)"
            value={reason}
            onChange={(event) => setReason(event.target.value)}
            aria-label="Reason"
          />
          <button
            type="button"
            className="btn-primary px-2 py-0.5 text-xs"
            disabled={sending}
            onClick={() => void decide(true)}
            data-testid="approve"
          >
            Approve
          </button>
          <button
            type="button"
            className="btn-secondary px-2 py-0.5 text-xs text-red-700"
            disabled={sending}
            onClick={() => void decide(false)}
            data-testid="deny"
          >
            Deny
          </button>
        </div>
      ) : (
        <p className="text-slate-500">Not decided before the run ended.</p>
      )}
    </div>
  );
}

/** Before a run's first event: how long it has waited and what for (the server, a process, its first events), ticking. */
function RunWaiting({
  waiting,
  queuePosition,
  stored,
}: {
  waiting: boolean;
  queuePosition: number | undefined;
  stored: StoredRunFacts | undefined;
}) {
  const view = useEditorStore((state) => state.run.view);
  const clock = runClock(view, stored, useNow(true));
  const reason = waitReason(view, stored, queuePosition);
  return (
    <p
      className="p-3 text-sm text-slate-500"
      role="status"
      data-testid="run-queued"
      data-queue-position={queuePosition}
    >
      <span className="font-medium text-slate-700">
        {waiting ? queueLabel(queuePosition) : "Waiting to start"}
        {clock && <span data-testid="run-waited">{` · ${formatDuration(clock.ms)}`}</span>}.
      </span>{" "}
      <span data-testid="run-wait-reason">{reason}</span> Its events appear here once it starts.
    </p>
  );
}

interface ConsoleLineProps {
  entry: ConsoleEntry;
  name: string;
  live: boolean;
  approval: ApprovalEntry | undefined;
  ask: AskEntry | undefined;
}

/**
 * One line of the console. Memoised: the reducer keeps every entry an event did not change, so
 * while a run streams only its newest lines render, not the thousands above them.
 */
const ConsoleLine = memo(function ConsoleLine({ entry, name, live, approval, ask }: ConsoleLineProps) {
  if (entry.type === "block.delta" || entry.type === "block.stdout") {
    const printed = entry.type === "block.stdout";
    return (
      <div
        className={`border-l-2 pl-2 ${printed ? "border-slate-300" : "border-sky-300"}`}
        data-testid={printed ? "console-stdout" : "console-text"}
        data-block-id={entry.blockId}
      >
        <span className="text-slate-400">
          {name} {printed ? "stdout ›" : "›"}{" "}
        </span>
        <span className={`whitespace-pre-wrap text-slate-800 ${printed ? "" : "font-sans"}`}>{entry.text}</span>
        {entry.partial && live && (
          <span className="ml-0.5 inline-block h-3 w-1.5 animate-pulse bg-sky-400 align-middle" aria-hidden />
        )}
      </div>
    );
  }
  return (
    <div data-testid="console-event" data-type={entry.type}>
      <span className="mr-2 text-slate-300">#{entry.seq}</span>
      <span className={TYPE_STYLES[entry.type] ?? "text-slate-700"}>{entry.text}</span>
      {approval && <ApprovalRequest approval={approval} live={live} blockName={name} />}
      {ask && <AskForm ask={ask} />}
    </div>
  );
});

/** Events and streamed text as they arrive, with the tool calls and asks waiting for a person. */
export function RunConsole() {
  const view = useEditorStore((state) => state.run.view);
  const { waiting, queuePosition, stored } = useFollowedRun();
  const bottom = useRef<HTMLDivElement>(null);
  const lastText = view.log.at(-1)?.text;
  useEffect(() => {
    bottom.current?.scrollIntoView({ block: "end" });
  }, [view.log.length, lastText]);
  if (view.status === "idle")
    return (
      <p className="p-3 text-sm text-slate-500">
        No run yet. Click Run to start one; its events appear here as they happen.
      </p>
    );
  const live = isLive(view);
  if (live && view.log.length === 0)
    return <RunWaiting waiting={waiting} queuePosition={queuePosition} stored={stored} />;
  const asks = new Map(view.asks.map((ask) => [ask.spanId, ask]));
  let approvalIndex = 0;
  return (
    <div className="h-full overflow-auto p-2 font-mono text-xs" data-testid="run-console">
      {view.log.map((entry) => {
        const approval = entry.type === "tool.approval.requested" ? view.approvals[approvalIndex++] : undefined;
        const ask = entry.type === "ask.requested" && entry.spanId ? asks.get(entry.spanId) : undefined;
        return (
          <ConsoleLine
            key={`${entry.seq}:${entry.type}:${entry.line ?? 0}`}
            entry={entry}
            name={entry.blockId ? (view.blockNames[entry.blockId] ?? entry.blockId) : ""}
            live={live}
            approval={approval}
            ask={ask}
          />
        );
      })}
      <div ref={bottom} />
    </div>
  );
}
