import { type Repositories } from "@/lib/db";
import { RUN_STATUSES, startRunRequestSchema } from "@/contract";
import { handleErrors, RequestError } from "@/lib/http/errors";
import { readJsonBody } from "@/lib/http/read-json";
import { lastEventId } from "@/lib/http/sse";
import { zodIssues } from "@/lib/workflows/parse-document";
import type { RunService } from "./run-service";
import { runEventStream } from "./run-stream";
import { toApiRun } from "./run-view";

const MAX_RUN_REQUEST_BYTES = 1024 * 1024;

export interface RunHttpDependencies {
  runs: RunService;
  repositories: Pick<Repositories, "runs" | "runEvents">;
}

async function readStartRequest(request: Request) {
  // Every field is optional, so an empty body starts a run with no input.
  const body = await readJsonBody(request, MAX_RUN_REQUEST_BYTES, { emptyAs: {} });
  const parsed = startRunRequestSchema.safeParse(body);
  if (!parsed.success) throw new RequestError(400, "invalid_request", "The run request is invalid.", zodIssues(parsed.error));
  return parsed.data;
}

/** The run endpoints of docs/CONTRACT.md section 5 and the event stream of section 6. */
export function runHttp(deps: () => RunHttpDependencies) {
  const getRun = async (id: string) => toApiRun(await deps().repositories.runs.getWithSpans(id));
  return {
    start: handleErrors(async (request: Request, workflowId: string) => {
      const { input, wait } = await readStartRequest(request);
      const { runs, repositories } = deps();
      const live = await runs.start(workflowId, input);
      if ((request.headers.get("accept") ?? "").includes("text/event-stream")) {
        return runEventStream({ runId: live.runId, afterSeq: 0, live, events: repositories.runEvents, signal: request.signal });
      }
      if (wait) {
        await live.done;
        return Response.json(await getRun(live.runId));
      }
      return Response.json({ runId: live.runId }, { status: 202 });
    }),
    list: handleErrors(async (request: Request, workflowId: string) => {
      const status = new URL(request.url).searchParams.getAll("status").flatMap((value) => value.split(",")).filter(Boolean);
      const unknown = status.filter((value) => !(RUN_STATUSES as readonly string[]).includes(value));
      if (unknown.length > 0) {
        throw new RequestError(400, "invalid_request", `Unknown run status "${unknown[0]}"; use one of ${RUN_STATUSES.join(", ")}.`, [{ path: "status", message: "unknown status" }]);
      }
      const runs = await deps().repositories.runs.listByWorkflow(workflowId, status.length ? { status: status as (typeof RUN_STATUSES)[number][] } : {});
      return Response.json({ runs });
    }),
    get: handleErrors(async (id: string) => Response.json(await getRun(id))),
    events: handleErrors(async (request: Request, id: string) => {
      const { runs, repositories } = deps();
      await repositories.runs.get(id); // 404 for an unknown run, before the stream starts
      return runEventStream({ runId: id, afterSeq: lastEventId(request), live: runs.liveRun(id), events: repositories.runEvents, signal: request.signal });
    }),
    cancel: handleErrors(async (id: string) => {
      await deps().runs.cancel(id);
      return Response.json({ runId: id, status: "cancelling" }, { status: 202 });
    }),
  };
}
