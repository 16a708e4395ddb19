"use client";

import { Copy } from "lucide-react";
import Link from "next/link";
import { useState, type ReactNode } from "react";
import { childRunOf } from "./child-run";
import { resumedDescription } from "@/components/ui/run-status-text";
import { runHref } from "@/components/ui/run-href";
import { RunFromHereButton } from "./run-from-here";
import { SimulatedBadge } from "./simulation-badges";
import { figureMarks, formatCost, formatDollars, formatDuration, formatTokenCount } from "@/components/ui/format";
import { formatTimeOfDay } from "@/components/ui/date-time";
import { PriceOverrideMark } from "@/components/prices/price-mark";
import { appliedPriceText } from "@/components/prices/price-text";
import type { ApiRun, ApiSpan } from "@/contract";

function Field({ label, children, testId }: { label: string; children: ReactNode; testId?: string }) {
  return (
    <div className="flex gap-2 py-0.5">
      <dt className="w-28 shrink-0 text-slate-500">{label}</dt>
      <dd className="min-w-0 flex-1 break-words" data-testid={testId}>
        {children}
      </dd>
    </div>
  );
}

function Json({ value, testId }: { value: unknown; testId: string }) {
  if (value === undefined || value === null) return <span className="text-slate-400">none</span>;
  const text = typeof value === "string" ? value : JSON.stringify(value, null, 2);
  return (
    <pre
      className="max-h-48 overflow-auto whitespace-pre-wrap rounded bg-slate-50 p-1.5 font-mono text-[11px]"
      data-testid={testId}
    >
      {text}
    </pre>
  );
}

type Figures = Pick<ApiSpan, "tokens" | "cost" | "unpriced" | "estimated"> & Partial<Pick<ApiSpan, "price">>;

/** Tokens and dollars of a span or the run, each part shown, marks where not exact. */
function UsageFields({ figures }: { figures: Figures }) {
  if (!figures.tokens) return <Field label="Usage">no model usage</Field>;
  const { tokens, cost } = figures;
  const marks = figureMarks(figures);
  const dollars = (value: number | undefined) =>
    cost && value !== undefined ? `${figures.estimated ? "≈ " : ""}${formatDollars(value)}` : "unpriced";
  return (
    <>
      <Field label="Prompt tokens" testId="span-tokens-prompt">
        {formatTokenCount(tokens.prompt)}
      </Field>
      <Field label="Cached prompt" testId="span-tokens-cached">
        {formatTokenCount(tokens.cachedPrompt ?? 0)}
      </Field>
      <Field label="Completion" testId="span-tokens-completion">
        {formatTokenCount(tokens.completion)}
      </Field>
      {tokens.reasoning !== undefined && (
        <Field label="Reasoning" testId="span-tokens-reasoning">
          {formatTokenCount(tokens.reasoning)}
        </Field>
      )}
      <Field
        label="Total tokens"
        testId="span-tokens-total"
      >{`${figures.estimated ? "≈ " : ""}${formatTokenCount(tokens.total)}`}</Field>
      <Field label="Input cost" testId="span-cost-input">
        {dollars(cost?.input)}
      </Field>
      <Field label="Output cost" testId="span-cost-output">
        {dollars(cost?.output)}
      </Field>
      {cost?.reasoning !== undefined && (
        <Field label="Reasoning cost" testId="span-cost-reasoning">
          {dollars(cost.reasoning)}
        </Field>
      )}
      <Field label="Cost" testId="span-cost-total">
        <span className="inline-flex items-center gap-1">
          {formatCost(figures)}
          <PriceOverrideMark price={figures.price} testId="span-price-override" />
        </span>
      </Field>
      {figures.price && (
        <Field label="Price" testId="span-price">
          {appliedPriceText(figures.price)}
        </Field>
      )}
      {marks.length > 0 && (
        <Field label="Note" testId="span-marks">
          <span className="text-amber-700">
            {marks.join(", ")}
            {figures.unpriced && " (no known price for a model used here)"}
            {figures.estimated && " (some tokens were counted locally because the provider reported none)"}
          </span>
        </Field>
      )}
    </>
  );
}

function CopyJson({ value }: { value: unknown }) {
  const [copied, setCopied] = useState(false);
  return (
    <button
      type="button"
      className="btn-secondary px-2 py-0.5 text-xs"
      data-testid="copy-span-json"
      onClick={() =>
        void navigator.clipboard.writeText(JSON.stringify(value, null, 2)).then(() => {
          setCopied(true);
          setTimeout(() => setCopied(false), 1_500);
        })
      }
    >
      <Copy className="h-3.5 w-3.5" aria-hidden /> {copied ? "Copied" : "Copy as JSON"}
    </button>
  );
}

function Timing({
  startedAt,
  endedAt,
  durationMs,
}: {
  startedAt: string;
  endedAt: string | null | undefined;
  durationMs: number | null | undefined;
}) {
  return (
    <>
      <Field label="Started">
        <time dateTime={startedAt} data-testid="span-started">
          {formatTimeOfDay(startedAt)}
        </time>
      </Field>
      <Field label="Duration" testId="span-duration">
        {durationMs === null || durationMs === undefined ? (endedAt ? "" : "running…") : formatDuration(durationMs)}
      </Field>
    </>
  );
}

/** Why a span (or the run) did not succeed: a cancelled one was cut short, which is no error of its own. */
function Outcome({
  subject,
  runStatus,
}: {
  subject: { status: string; error?: ApiSpan["error"] | null };
  runStatus: ApiRun["status"];
}) {
  if (subject.status === "cancelled") {
    const why =
      subject.error?.message ??
      (runStatus === "cancelled"
        ? "The run was cancelled while this was running"
        : "The run stopped while this was running");
    return (
      <Field label="Reason" testId="span-cancelled-reason">
        <span className="text-orange-800">{why}</span>
      </Field>
    );
  }
  if (!subject.error) return null;
  return (
    <Field label="Error" testId="span-error">
      <span className="text-red-700">
        {subject.error.code}: {subject.error.message}
      </span>
    </Field>
  );
}

/** Everything the trace knows about one span (or the run): input, output, model, usage, timing, error. */
export function SpanDetails({ span, run }: { span: ApiSpan | null; run: ApiRun }) {
  const subject = span ?? run;
  const childRun = span ? childRunOf(span) : null;
  const title = span
    ? span.kind === "block"
      ? `${span.blockName} (${span.blockType})`
      : `${span.kind === "model" ? "Model call" : "Tool call"} in ${span.blockName}`
    : "Run";
  return (
    <div className="h-full overflow-auto p-2 text-xs" data-testid="span-details" data-span-id={span?.id ?? run.id}>
      <div className="mb-1 flex items-center justify-between gap-2">
        <h3 className="truncate text-sm font-semibold">{title}</h3>
        <div className="flex shrink-0 items-center gap-1">
          {span?.kind === "block" && <RunFromHereButton blockId={span.blockId} place="details" />}
          <CopyJson value={subject} />
        </div>
      </div>
      <dl>
        <Field label="Status" testId="span-status">
          {subject.status}
        </Field>
        {span?.kind === "model" && (
          <Field label="Model" testId="span-model">
            {span.model ?? span.name}
          </Field>
        )}
        {span?.kind === "tool" && <Field label="Tool">{span.name}</Field>}
        {span?.iteration && span.iteration.length > 0 && <Field label="Iteration">{span.iteration.join(".")}</Field>}
        {span?.simulated && (
          <Field label="Simulated" testId="span-simulated">
            <SimulatedBadge source={span.simulated} />{" "}
            {span.simulated === "recorded" ? "no model was called" : "not sent: this is a test run"}
          </Field>
        )}
        {!span && run.test && (
          <Field label="Test run" testId="run-test-field">
            side effects were answered from the blocks&apos; test samples, not sent
          </Field>
        )}
        {span?.reusedFrom && (
          <Field label="Reused" testId="span-reused">
            not run: its result in run {span.reusedFrom} was reused (what it cost there is not counted in this run)
          </Field>
        )}
        {span?.worker && (
          <Field label="Process" testId="span-worker">
            {span.worker}
          </Field>
        )}
        {!span && run.worker && (
          <Field label="Process" testId="run-worker">
            {run.worker}
          </Field>
        )}
        {!span && run.recoveries > 0 && (
          <Field label="Resumed" testId="run-recoveries">
            {resumedDescription(run.recoveries)}
          </Field>
        )}
        {childRun && (
          <Field label="Child run" testId="span-child-run">
            <Link
              href={runHref(childRun.workflowId, childRun.runId)}
              className="text-indigo-600 underline"
              data-testid="span-child-run-link"
            >
              Open the workflow&apos;s run
            </Link>
          </Field>
        )}
        <Timing startedAt={subject.startedAt} endedAt={subject.endedAt} durationMs={subject.durationMs} />
        <UsageFields figures={span ?? run} />
        <Outcome subject={subject} runStatus={run.status} />
        <Field label="Input">
          <Json value={subject.input} testId="span-input" />
        </Field>
        <Field label="Output">
          <Json value={subject.output} testId="span-output" />
        </Field>
      </dl>
    </div>
  );
}
