import "server-only";
import { ESTIMATE_HISTORY_RUNS, estimateRequestSchema, type WorkflowEstimate } from "@/contract";
import { checkedRunInput, entryBlockOf, startConfigSchema } from "@/blocks";
import { BlockExecutionError } from "@/executor";
import type { Repositories } from "@/lib/db";
import { endpoint } from "@/lib/http/endpoint";
import { RequestError } from "@/lib/http/errors";
import { readJsonRequest } from "@/lib/http/read-json";
import { tokenizerReady } from "@/providers";
import { estimateWorkflow, type PriceLookup } from "./estimate-workflow";

const MAX_ESTIMATE_REQUEST_BYTES = 1024 * 1024;

export interface EstimateDependencies {
  repositories: Pick<Repositories, "workflows" | "runHistory">;
  /** The prices of a model in a workspace (its own overrides first, read once per estimate). */
  priceOf(workspaceId: string): PriceLookup | Promise<PriceLookup>;
}

/**
 * The input as the start block would output it, or 400 naming the input that it would refuse.
 * With no input given, only the declared defaults are known; the other inputs are estimated as unknown.
 */
function startOutput(
  blocks: ReadonlyArray<{ type: string; enabled?: boolean; config?: unknown }>,
  input: Record<string, unknown> | undefined,
): Record<string, unknown> {
  const start = entryBlockOf(blocks);
  const config = startConfigSchema.safeParse(start?.config ?? {});
  if (!config.success) return input ?? {};
  if (input === undefined)
    return Object.fromEntries(
      config.data.inputs
        .filter((declared) => declared.default !== undefined)
        .map((declared) => [declared.name, declared.default]),
    );
  try {
    return checkedRunInput(config.data, input);
  } catch (error) {
    if (!(error instanceof BlockExecutionError)) throw error;
    throw new RequestError(
      "invalid_input",
      error.message,
      error.details.length > 0 ? error.details : [{ path: "input", message: error.message }],
    );
  }
}

/**
 * What a run of `document` (a workflow's draft, or a proposal for it) would cost with `input`, from
 * the workflow's recent runs: what the estimate endpoint answers, and the copilot's before and after.
 */
export async function estimateDocument(
  { repositories, priceOf }: EstimateDependencies,
  workspaceId: string,
  workflowId: string,
  document: Parameters<typeof estimateWorkflow>[0]["document"],
  input?: Record<string, unknown>,
): Promise<WorkflowEstimate> {
  const checked = startOutput(document.blocks, input);
  const history = await repositories.runHistory.recentRuns(workspaceId, workflowId, ESTIMATE_HISTORY_RUNS);
  // The tokenizer is built in slices before its first count here, not at once on the request.
  await tokenizerReady();
  const figures = estimateWorkflow({ document, input: checked, history, priceOf: await priceOf(workspaceId) });
  return { estimate: true, ...figures };
}

/**
 * POST /api/workflows/:id/estimate (docs/CONTRACT.md section 12): the draft's cost with this input,
 * before anything runs. A reading: viewers may ask too. No provider is called.
 */
export function estimateEndpoints(deps: () => EstimateDependencies) {
  return {
    estimate: endpoint("estimateRun", async (request, { id }, { workspace }) => {
      const { repositories, priceOf } = deps();
      const { input } = await readJsonRequest(request, estimateRequestSchema, {
        subject: "The estimate request",
        maxBytes: MAX_ESTIMATE_REQUEST_BYTES,
        emptyAs: {},
      });
      const workflow = await repositories.workflows.get(workspace.id, id);
      const answer = await estimateDocument({ repositories, priceOf }, workspace.id, id, workflow, input);
      return Response.json(answer);
    }),
  };
}

export type EstimateEndpoints = ReturnType<typeof estimateEndpoints>;
