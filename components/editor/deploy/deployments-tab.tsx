"use client";

import { useState } from "react";
import { useQuery } from "@tanstack/react-query";
import { Rocket, RotateCcw } from "lucide-react";
import { ApiError, api, type DeploymentInfo } from "@/contract";
import { GateOverride, GateResult } from "./gate-result";
import { DiffView } from "./diff-view";
import { useDeploymentActions, useDeployments, useDraftDiff } from "./use-deployments";
import { formatDateTime } from "@/components/ui/date-time";

/**
 * Deploying and rolling back: what the draft changes against the active deployment, a note and
 * the Deploy button, then every deployment with its note, author and time, each comparable with
 * the draft and activatable (an earlier one is a rollback).
 */
export function DeploymentsTab({
  workflowId,
  savedVersion,
  unsaved,
  readOnly,
}: {
  workflowId: string;
  savedVersion: number;
  unsaved: boolean;
  readOnly: boolean;
}) {
  const deployments = useDeployments(workflowId);
  const draft = useDraftDiff(workflowId, deployments.active?.id, savedVersion);
  const { deploy, activate } = useDeploymentActions(workflowId);
  const [note, setNote] = useState("");
  // The saved draft does what the active deployment does: deploying it again would change nothing.
  const nothingToDeploy = deployments.active !== undefined && draft.differs === false && !unsaved;
  return (
    <div className="space-y-4">
      {!readOnly && (
        <section className="space-y-2 rounded border border-slate-200 p-3">
          <h3 className="text-sm font-semibold">Deploy the draft</h3>
          {deployments.active ? (
            <div className="text-xs text-slate-600">
              Changes since v{deployments.active.number}:
              <div className="mt-1">
                {draft.data ? <DiffView diff={draft.data} testId="draft-diff" /> : <span>comparing…</span>}
              </div>
            </div>
          ) : (
            <p className="text-xs text-slate-600">
              Not deployed yet: the API, webhooks, schedules and chat need a deployment to run.
            </p>
          )}
          {unsaved && (
            <p className="text-xs text-amber-700">Unsaved edits are not part of a deployment until they are saved.</p>
          )}
          <form
            className="flex items-center gap-2"
            onSubmit={(event) => {
              event.preventDefault();
              deploy.mutate({ note }, { onSuccess: () => setNote("") });
            }}
          >
            <input
              className="input flex-1 text-sm"
              placeholder="What changed (optional)"
              aria-label="Deployment note"
              data-testid="deploy-note"
              maxLength={500}
              value={note}
              onChange={(event) => setNote(event.target.value)}
            />
            <button
              type="submit"
              className="btn-primary"
              disabled={deploy.isPending || nothingToDeploy}
              title={
                nothingToDeploy
                  ? `Nothing to deploy: the saved draft does what v${deployments.active?.number} does`
                  : undefined
              }
              data-testid="deploy-submit"
            >
              <Rocket className="h-4 w-4" aria-hidden /> {deploy.isPending ? "Deploying…" : "Deploy"}
            </button>
          </form>
          <GateResult workflowId={workflowId} />
          {deploy.isError && (
            <p className="text-xs text-red-700" role="alert" data-testid="deploy-error">
              {deploy.error.message}
            </p>
          )}
          {deploy.isError && deploy.error instanceof ApiError && deploy.error.code === "evaluation_failed" && (
            <GateOverride
              onOverride={(reason) =>
                deploy.mutate({ note, override: { note: reason } }, { onSuccess: () => setNote("") })
              }
            />
          )}
        </section>
      )}
      <section>
        <h3 className="mb-1 text-sm font-semibold">Deployments</h3>
        {deployments.isError && (
          <p className="text-xs text-red-700">Could not list deployments: {deployments.error.message}</p>
        )}
        {deployments.data?.length === 0 && <p className="text-xs text-slate-500">None yet.</p>}
        <ol className="divide-y divide-slate-100" data-testid="deployment-list">
          {deployments.data?.map((deployment) => (
            <DeploymentRow
              key={deployment.id}
              workflowId={workflowId}
              deployment={deployment}
              readOnly={readOnly}
              activating={activate.isPending && activate.variables === deployment.id}
              onActivate={() => activate.mutate(deployment.id)}
            />
          ))}
        </ol>
        {activate.isError && <p className="text-xs text-red-700">Could not activate: {activate.error.message}</p>}
      </section>
    </div>
  );
}

function DeploymentRow({
  workflowId,
  deployment,
  readOnly,
  activating,
  onActivate,
}: {
  workflowId: string;
  deployment: DeploymentInfo;
  readOnly: boolean;
  activating: boolean;
  onActivate: () => void;
}) {
  const [comparing, setComparing] = useState(false);
  const diff = useQuery({
    queryKey: ["deployment-diff", workflowId, deployment.id, "draft-compare"],
    queryFn: () => api.deployments.diff(workflowId, deployment.id, "draft"),
    enabled: comparing,
  });
  return (
    <li
      className="py-2 text-sm"
      data-testid="deployment-row"
      data-number={deployment.number}
      data-active={deployment.active}
    >
      <div className="flex items-center gap-2">
        <span className="font-semibold">v{deployment.number}</span>
        {deployment.active && <span className="rounded bg-emerald-100 px-1.5 text-xs text-emerald-800">active</span>}
        <span className="truncate text-slate-700">
          {deployment.note || <span className="text-slate-400">no note</span>}
        </span>
        <span className="ml-auto shrink-0 text-xs text-slate-500">
          {deployment.createdBy?.name ?? "someone"} · {formatDateTime(deployment.createdAt)}
        </span>
      </div>
      {deployment.gateOverride && (
        <p className="mt-1 text-xs text-amber-800" data-testid="deployment-gate-override">
          Deployed past the evaluation gate: {deployment.gateOverride.note} (
          {deployment.gateOverride.failures.join("; ")})
        </p>
      )}
      <div className="mt-1 flex gap-2 text-xs">
        <button
          type="button"
          className="link"
          onClick={() => setComparing(!comparing)}
          data-testid="deployment-compare"
        >
          {comparing ? "Hide changes" : "Compare with draft"}
        </button>
        {!readOnly && !deployment.active && (
          <button
            type="button"
            className="link"
            onClick={onActivate}
            disabled={activating}
            data-testid="deployment-activate"
          >
            <RotateCcw className="inline h-3 w-3" aria-hidden />{" "}
            {activating ? "Activating…" : `Activate v${deployment.number}`}
          </button>
        )}
      </div>
      {comparing && (
        <div className="mt-1 pl-2">
          {diff.data ? (
            <DiffView diff={diff.data} testId="deployment-row-diff" />
          ) : diff.isError ? (
            <span className="text-xs text-red-700">{diff.error.message}</span>
          ) : (
            "…"
          )}
        </div>
      )}
    </li>
  );
}
