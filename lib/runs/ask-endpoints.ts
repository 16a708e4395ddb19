import "server-only";
import { askAnswerRequestSchema } from "@/contract";
import type { Member } from "@/lib/auth";
import type { Repositories } from "@/lib/db";
import { endpoint } from "@/lib/http/endpoint";
import { readJsonRequest } from "@/lib/http/read-json";
import type { RunService } from "./run-service";

const MAX_ANSWER_BYTES = 64 * 1024;

export interface AskEndpointDependencies {
  runs: RunService;
  repositories: Pick<Repositories, "runs">;
}

/** Who answered, as the ask's output and span record it: the person, and that it was through an API key when it was. */
export function answeredByOf(member: Member): string {
  return member.via === "api-key" ? `${member.email} (API key)` : member.email;
}

/**
 * GET /api/runs/:id/asks lists the asks waiting for an answer;
 * POST /api/runs/:id/asks/:spanId `{ choice?, text?, fields? }` answers one (202; the run goes on).
 */
export function askEndpoints(deps: () => AskEndpointDependencies) {
  return {
    list: endpoint("listRunAsks", async (_request, { id: runId }, { workspace }) => {
      const { runs, repositories } = deps();
      const run = await repositories.runs.get(workspace.id, runId); // 404 for an unknown run or another workspace's
      return Response.json({ runId, status: run.status, asks: await runs.asks.pending(runId) });
    }),
    answer: endpoint("answerRunAsk", async (request, { id: runId, spanId }, member) => {
      const body = await readJsonRequest(request, askAnswerRequestSchema, {
        subject: "The answer",
        maxBytes: MAX_ANSWER_BYTES,
      });
      const { runs, repositories } = deps();
      await repositories.runs.get(member.workspace.id, runId);
      const ask = await runs.asks.answer(member.workspace.id, runId, spanId, body, answeredByOf(member));
      return Response.json({ runId, spanId, blockId: ask.blockId, answered: true }, { status: 202 });
    }),
  };
}

export type AskEndpoints = ReturnType<typeof askEndpoints>;
