"use client";

import { useMemo, useState } from "react";
import Link from "next/link";
import { useQuery } from "@tanstack/react-query";
import { startInputJsonSchema } from "@/blocks";
import { api } from "@/contract";
import { exampleInput } from "@/components/ui/shell-example";
import { curlExample, javascriptExample, type CallMode } from "./call-examples";
import { CopyButton } from "@/components/ui/copy-button";
import { Snippet } from "./snippet";
import { startInputs } from "./start-inputs";
import { useDeployments } from "./use-deployments";

const MODES: { mode: CallMode; label: string; answer: string }[] = [
  { mode: "wait", label: "Wait for the result", answer: "200 with the finished run (status, output, tokens, cost)" },
  { mode: "stream", label: "Stream", answer: "200 and the run's events as they happen (text/event-stream)" },
  { mode: "background", label: "Background", answer: "202 { runId }; follow it with GET /api/runs/:id or its events" },
];

/**
 * Calling the deployed workflow from a program: the endpoint, ready-to-copy curl and JavaScript
 * for each way of answering, with the start of the caller's own key, and the input as JSON Schema.
 */
export function ApiTab({ workflowId }: { workflowId: string }) {
  const { active } = useDeployments(workflowId);
  const deployed = useQuery({
    queryKey: ["deployment", workflowId, active?.id],
    queryFn: () => api.deployments.get(workflowId, active!.id),
    enabled: active !== undefined,
  });
  const keys = useQuery({ queryKey: ["api-keys"], queryFn: () => api.apiKeys.list() });
  const [mode, setMode] = useState<CallMode>("wait");
  const origin = typeof window === "undefined" ? "" : window.location.origin;
  const inputs = useMemo(() => startInputs(deployed.data?.document), [deployed.data]);
  const schema = useMemo(() => startInputJsonSchema(inputs), [inputs]);
  const keyHint = keys.data?.[0]?.prefix ?? "trl_";
  const example = { origin, workflowId, input: exampleInput(inputs), keyHint, mode };
  const curl = curlExample(example);
  const javascript = javascriptExample(example);
  const endpoint = `${origin}/api/workflows/${workflowId}/execute`;

  if (!active) {
    return (
      <p className="text-sm text-slate-600" data-testid="api-not-deployed">
        Deploy the workflow first: the endpoint runs the active deployment, and answers 409 <code>not_deployed</code>{" "}
        until there is one.
      </p>
    );
  }
  return (
    <div className="space-y-4 text-sm">
      <section className="space-y-1">
        <h3 className="font-semibold">Endpoint</h3>
        <div className="flex items-center gap-2">
          <code className="flex-1 truncate rounded bg-slate-100 px-2 py-1 text-xs" data-testid="api-endpoint">
            POST {endpoint}
          </code>
          <CopyButton text={endpoint} testId="copy-endpoint" />
        </div>
        <p className="text-xs text-slate-500">
          Runs v{active.number}, the active deployment. Send an API key as <code>Authorization: Bearer</code>:{" "}
          {keys.data?.length ? (
            <>
              yours start with <code data-testid="api-key-hint">{keyHint}</code>.
            </>
          ) : (
            <>
              you have none yet,{" "}
              <Link href="/settings/api-keys" className="link">
                create one
              </Link>
              .
            </>
          )}
        </p>
      </section>
      <section className="space-y-2">
        <div className="flex gap-1" role="tablist" aria-label="How the call is answered">
          {MODES.map((option) => (
            <button
              key={option.mode}
              type="button"
              role="tab"
              aria-selected={mode === option.mode}
              className={`rounded px-2 py-0.5 text-xs ${mode === option.mode ? "bg-indigo-100 text-indigo-800" : "text-slate-600 hover:bg-slate-100"}`}
              onClick={() => setMode(option.mode)}
              data-testid={`api-mode-${option.mode}`}
            >
              {option.label}
            </button>
          ))}
        </div>
        <p className="text-xs text-slate-500">Answer: {MODES.find((option) => option.mode === mode)?.answer}</p>
        <Snippet title="curl" text={curl} testId="api-curl" />
        <Snippet title="JavaScript" text={javascript} testId="api-javascript" />
      </section>
      <section className="space-y-1">
        <h3 className="font-semibold">Input (JSON Schema)</h3>
        <Snippet title="input" text={JSON.stringify(schema, null, 2)} testId="api-input-schema" />
      </section>
    </div>
  );
}
