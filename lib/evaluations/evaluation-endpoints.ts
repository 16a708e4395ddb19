import "server-only";
import { startEvaluationRequestSchema, suiteRequestSchema } from "@/contract";
import { endpoint } from "@/lib/http/endpoint";
import { readJsonRequest } from "@/lib/http/read-json";
import type { EvaluationService } from "./evaluation-service";
import type { SuiteService } from "./suite-service";

const MAX_SUITE_BYTES = 256 * 1024;

export interface EvaluationEndpointServices {
  suites: SuiteService;
  evaluations: EvaluationService;
}

/** The suite and evaluation endpoints of docs/CONTRACT.md section 13. */
export function evaluationEndpoints(services: () => EvaluationEndpointServices) {
  const readSuite = (request: Request) =>
    readJsonRequest(request, suiteRequestSchema, { subject: "The suite", maxBytes: MAX_SUITE_BYTES });
  return {
    listSuites: endpoint("listSuites", async (_request, { id }, { workspace }) =>
      Response.json({ suites: await services().suites.list(workspace.id, id) }),
    ),
    createSuite: endpoint("createSuite", async (request, { id }, { workspace }) =>
      Response.json(await services().suites.create(workspace.id, id, await readSuite(request)), { status: 201 }),
    ),
    getSuite: endpoint("getSuite", async (_request, { id }, { workspace }) =>
      Response.json(await services().suites.get(workspace.id, id)),
    ),
    replaceSuite: endpoint("replaceSuite", async (request, { id }, { workspace }) =>
      Response.json(await services().suites.replace(workspace.id, id, await readSuite(request))),
    ),
    deleteSuite: endpoint("deleteSuite", async (_request, { id }, { workspace }) => {
      await services().suites.remove(workspace.id, id);
      return new Response(null, { status: 204 });
    }),
    list: endpoint("listEvaluations", async (request, { id }, { workspace }) => {
      const suiteId = new URL(request.url).searchParams.get("suiteId") || undefined;
      return Response.json({ evaluations: await services().evaluations.list(workspace.id, id, suiteId) });
    }),
    start: endpoint("startEvaluation", async (request, { id }, member) => {
      const body = await readJsonRequest(request, startEvaluationRequestSchema, {
        subject: "The evaluation",
        maxBytes: 16 * 1024,
      });
      const { evaluations } = services();
      const started = await evaluations.start(member.workspace.id, id, body, member.userId);
      if (!body.wait) return Response.json({ evaluationId: started.evaluationId }, { status: 202 });
      await started.done;
      return Response.json(await evaluations.get(member.workspace.id, started.evaluationId));
    }),
    get: endpoint("getEvaluation", async (_request, { id }, { workspace }) =>
      Response.json(await services().evaluations.get(workspace.id, id)),
    ),
    compare: endpoint("compareEvaluations", async (_request, { id, otherId }, { workspace }) =>
      Response.json(await services().evaluations.compare(workspace.id, id, otherId)),
    ),
  };
}

export type EvaluationEndpoints = ReturnType<typeof evaluationEndpoints>;
