import "server-only";
import {
  replayRequestSchema,
  rerunRequestSchema,
  RUN_STATUSES,
  RUN_TRIGGER_KINDS,
  startRunRequestSchema,
  type RunTrigger,
} from "@/contract";
import type { Member } from "@/lib/auth";
import type { Repositories, RunStarter } from "@/lib/db";
import { endpoint } from "@/lib/http/endpoint";
import { RequestError } from "@/lib/http/errors";
import { claimKey, idempotencyKeyOf } from "@/lib/http/idempotency-claim";
import { listPaging, timeAndIdPosition } from "@/lib/http/pagination";
import { readJsonRequest } from "@/lib/http/read-json";
import { lastEventId } from "@/lib/http/sse";
import { startReplay } from "./replay";
import { startRerun } from "./rerun";
import { diffRuns } from "./run-diff";
import { runIntake } from "./run-intake";
import type { RunService } from "./run-service";
import { runEventStream } from "./run-stream";
import type { RunTarget } from "./run-target";
import { runDocument } from "./run-document";
import { toApiRun } from "./run-view";

const MAX_RUN_REQUEST_BYTES = 1024 * 1024;

const runPages = listPaging("runs", timeAndIdPosition);
const workspaceRunPages = listPaging("workspace-runs", timeAndIdPosition);

export interface RunEndpointDependencies {
  runs: RunService;
  repositories: Pick<Repositories, "runs" | "runEvents" | "workflows" | "workspaceRuns" | "runStartKeys">;
}

/** `?status=failed,cancelled` or `?trigger=api,webhook` (or repeated): the values to list, refusing unknown ones by name. */
function listFilter<Value extends string>(
  request: Request,
  name: "status" | "trigger",
  allowed: readonly Value[],
): Value[] {
  const isAllowed = (value: string): value is Value => (allowed as readonly string[]).includes(value);
  const values = new URL(request.url).searchParams
    .getAll(name)
    .flatMap((value) => value.split(","))
    .filter(Boolean);
  const unknown = values.find((value) => !isAllowed(value));
  if (unknown !== undefined) {
    throw new RequestError(
      "invalid_request",
      `Unknown ${name === "status" ? "run status" : name} "${unknown}"; use one of ${allowed.join(", ")}.`,
      [{ path: name, message: `unknown ${name}` }],
    );
  }
  return values.filter(isAllowed);
}

/** `?userId=<id>` or `?apiKeyId=<id>`: only the runs that member (with a session) or that key started; not both. */
function startedByOf(request: Request): RunStarter | undefined {
  const params = new URL(request.url).searchParams;
  const userId = params.get("userId") || undefined;
  const apiKeyId = params.get("apiKeyId") || undefined;
  if (userId && apiKeyId)
    throw new RequestError("invalid_request", "Filter by userId or by apiKeyId, not both: a run has one starter.", [
      { path: "apiKeyId", message: "cannot be combined with userId" },
    ]);
  if (userId) return { userId };
  return apiKeyId ? { apiKeyId } : undefined;
}

/** `?deployment=<id>` lists that deployment's runs, `?deployment=draft` the draft's. */
function deploymentFilter(request: Request): string | null | undefined {
  const value = new URL(request.url).searchParams.get("deployment");
  if (value === null || value === "") return undefined;
  return value === "draft" ? null : value;
}

/**
 * The run endpoints of docs/CONTRACT.md section 5 and the event stream of section 6. `start` and
 * `list` sit under /api/workflows/:id/runs, so their `id` is the workflow's; the rest take a run's.
 */
export function runEndpoints(deps: () => RunEndpointDependencies) {
  const getRun = async (workspaceId: string, id: string) => {
    const { runs } = deps().repositories;
    const run = toApiRun(await runs.getWithSpans(workspaceId, id));
    if (run.status !== "queued") return run;
    const position = await runs.queuePosition(id);
    return position === undefined ? run : { ...run, queuePosition: position };
  };
  const triggerOf = (member: Member): RunTrigger =>
    member.via === "api-key" ? { kind: "api", apiKeyId: member.apiKeyId } : { kind: "editor", userId: member.userId };
  /** POST .../runs runs the draft, POST .../execute the active deployment; otherwise the same. */
  const startEndpoint = (operationId: "startRun" | "executeWorkflow", target: RunTarget) =>
    endpoint(operationId, async (request, { id: workflowId }, member) => {
      const { runs, repositories } = deps();
      const { workspace } = member;
      const trigger = triggerOf(member);
      const key = idempotencyKeyOf(request);
      // Counted as intake until stored, so queued runs of this process wait while starts are answered (run-intake.ts).
      const started = await runIntake().accept(async () => {
        // Every field is optional, so an empty body starts a run with no input.
        const { input, wait, test, budget } = await readJsonRequest(request, startRunRequestSchema, {
          subject: "The run request",
          maxBytes: MAX_RUN_REQUEST_BYTES,
          emptyAs: {},
        });
        const options = { target, trigger, ...(test ? { test: true } : {}), ...(budget ? { budget } : {}) };
        if (key === undefined) return { live: await runs.start(workspace.id, workflowId, input, options), wait };
        // A key is claimed per workflow, once the workflow is known to be this workspace's (404 otherwise, nothing claimed).
        await repositories.workflows.get(workspace.id, workflowId);
        const claim = await claimKey(repositories.runStartKeys, workflowId, key);
        if ("replayOf" in claim) return { replayOf: claim.replayOf };
        try {
          const live = await runs.start(workspace.id, workflowId, input, options);
          await repositories.runStartKeys.settle(claim.claimedId, 202, live.runId);
          return { live, wait };
        } catch (error) {
          // A refused start (not deployed, over budget…) ran nothing: its key stays free for the retry.
          await repositories.runStartKeys.release(claim.claimedId);
          throw error;
        }
      });
      if ("replayOf" in started) {
        return Response.json({ runId: started.replayOf }, { status: 202, headers: { "idempotent-replayed": "true" } });
      }
      const { live, wait } = started;
      if ((request.headers.get("accept") ?? "").includes("text/event-stream")) {
        return runEventStream({
          runId: live.runId,
          afterSeq: 0,
          runs,
          events: repositories.runEvents,
          signal: request.signal,
        });
      }
      if (wait) {
        await live.done;
        // Executed here from start to end: answered from what the attempt stored, not read back.
        const here = runs.endedHere(live.runId);
        return Response.json(here ? toApiRun(here) : await getRun(workspace.id, live.runId));
      }
      // The cap that applies, and where it came from: a request asking for more than the workflow allows is told so here.
      return Response.json(live.budget ? { runId: live.runId, budget: live.budget } : { runId: live.runId }, {
        status: 202,
      });
    });
  return {
    start: startEndpoint("startRun", "draft"),
    execute: startEndpoint("executeWorkflow", "active-deployment"),
    list: endpoint("listRuns", async (request, { id: workflowId }, { workspace }) => {
      const status = listFilter(request, "status", RUN_STATUSES);
      const trigger = listFilter(request, "trigger", RUN_TRIGGER_KINDS);
      const deploymentId = deploymentFilter(request);
      const startedBy = startedByOf(request);
      const page = runPages.read(request);
      const runs = await deps().repositories.runs.pageByWorkflow(workspace.id, workflowId, {
        ...page,
        ...(status.length ? { status } : {}),
        ...(trigger.length ? { trigger } : {}),
        ...(deploymentId === undefined ? {} : { deploymentId }),
        ...(startedBy ? { startedBy } : {}),
      });
      return Response.json(runPages.answer("runs", runs));
    }),
    /** GET /api/runs: every run of the workspace, across its workflows, with the same filters and `?workflow=<id>`. */
    listWorkspace: endpoint("listWorkspaceRuns", async (request, _params, { workspace }) => {
      const status = listFilter(request, "status", RUN_STATUSES);
      const trigger = listFilter(request, "trigger", RUN_TRIGGER_KINDS);
      const workflowId = new URL(request.url).searchParams.get("workflow") || undefined;
      const startedBy = startedByOf(request);
      const runs = await deps().repositories.workspaceRuns.page(workspace.id, {
        ...workspaceRunPages.read(request),
        ...(workflowId ? { workflowId } : {}),
        ...(status.length ? { status } : {}),
        ...(trigger.length ? { trigger } : {}),
        ...(startedBy ? { startedBy } : {}),
      });
      return Response.json(workspaceRunPages.answer("runs", runs));
    }),
    get: endpoint("getRun", async (_request, { id }, { workspace }) => Response.json(await getRun(workspace.id, id))),
    /** GET /api/runs/:id/document: the graph the run ran (run-document.ts). */
    document: endpoint("getRunDocument", async (_request, { id }, { workspace }) =>
      Response.json(await runDocument(deps().repositories.runs, workspace.id, id)),
    ),
    events: endpoint("followRunEvents", async (request, { id }, { workspace }) => {
      const { runs, repositories } = deps();
      await repositories.runs.get(workspace.id, id); // 404 for an unknown run (or another workspace's), before the stream starts
      return runEventStream({
        runId: id,
        afterSeq: lastEventId(request),
        runs,
        events: repositories.runEvents,
        signal: request.signal,
      });
    }),
    /** POST /api/runs/:id/rerun `{ blockId }`: a new run from that block (rerun.ts). */
    rerun: endpoint("rerunRun", async (request, { id }, member) => {
      const { runs, repositories } = deps();
      const { live, rerunOf } = await runIntake().accept(async () => {
        const { blockId } = await readJsonRequest(request, rerunRequestSchema, {
          subject: "The rerun request",
          maxBytes: 16 * 1024,
        });
        return startRerun(runs, repositories, member.workspace.id, { runId: id, blockId, trigger: triggerOf(member) });
      });
      return Response.json({ runId: live.runId, rerunOf }, { status: 202 });
    }),
    /** POST /api/runs/:id/replay `{ wait? }`: the run again, every model and tool call answered from its recordings (replay.ts). */
    replay: endpoint("replayRun", async (request, { id }, member) => {
      const { runs, repositories } = deps();
      const { live, replayOf, wait } = await runIntake().accept(async () => {
        const { wait } = await readJsonRequest(request, replayRequestSchema, {
          subject: "The replay request",
          maxBytes: 16 * 1024,
          emptyAs: {},
        });
        return {
          ...(await startReplay(runs, repositories, member.workspace.id, { runId: id, trigger: triggerOf(member) })),
          wait,
        };
      });
      if (wait) {
        await live.done;
        return Response.json(await getRun(member.workspace.id, live.runId));
      }
      return Response.json({ runId: live.runId, replayOf }, { status: 202 });
    }),
    /** GET /api/runs/:id/diff/:otherId: two runs of one workflow compared block by block (run-diff.ts). */
    diff: endpoint("diffRuns", async (_request, { id, otherId }, { workspace }) => {
      const [run, other] = await Promise.all([getRun(workspace.id, id), getRun(workspace.id, otherId)]);
      if (run.workflowId !== other.workflowId) {
        throw new RequestError(
          "invalid_request",
          `Runs "${id}" and "${otherId}" are runs of different workflows (${run.workflowId} and ${other.workflowId}): compare two runs of the same workflow.`,
          [{ path: "otherId", message: "a run of another workflow" }],
        );
      }
      return Response.json(diffRuns(run, other));
    }),
    cancel: endpoint("cancelRun", async (_request, { id }, { workspace }) => {
      await deps().runs.cancel(workspace.id, id);
      return Response.json({ runId: id, status: "cancelling" }, { status: 202 });
    }),
  };
}

export type RunEndpoints = ReturnType<typeof runEndpoints>;
