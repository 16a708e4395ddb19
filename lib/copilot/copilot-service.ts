import "server-only";
import {
  COPILOT_MAX_STEPS,
  type AppliedPrice,
  type CopilotAnswer,
  type CopilotRequest,
  type Usage,
  type WorkflowDocument,
  type WorkflowEstimate,
} from "@/contract";
import { diffDocuments, isTrellisError, SpendLedger, sumUsage, type BlockBudget } from "@/executor";
import type { CopilotCall, Repositories } from "@/lib/db";
import { NotFoundError, VersionConflictError } from "@/lib/db";
import { RequestError } from "@/lib/http/errors";
import { processLogger } from "@/lib/observability";
import { parseModelId, PROVIDERS, PROVIDER_IDS, runModel, type ResolvedModel } from "@/providers";
import { copilotSystemPrompt } from "./copilot-context";
import { copilotTools } from "./copilot-tools";
import { DraftEditor } from "./draft-editor";

export interface CopilotDependencies {
  repositories: Pick<Repositories, "workflows" | "budgets" | "copilot" | "runs">;
  /** The model as an Agent block of the workspace gets it: its stored keys first, then the operator's. */
  resolveModel(workspaceId: string, modelId: string): Promise<ResolvedModel>;
  mcpServerNames(workspaceId: string): string[];
  /** What saving checks beyond the graph (stored things named, tool types): lib/workflows/service.ts. */
  checkStored(workspaceId: string, document: WorkflowDocument): Promise<void>;
  /** The run cost estimate of a document of the workflow, as POST /estimate answers with no input. */
  estimate(workspaceId: string, workflowId: string, document: WorkflowDocument): Promise<WorkflowEstimate>;
}

/** The variables that would give the copilot a language model, for the offline model's refusal. */
export function languageModelSettings(): string[] {
  return PROVIDER_IDS.filter((provider) => !PROVIDERS[provider].inProcess).map((provider) => {
    const { label, apiKeyVariable, baseUrlVariable } = PROVIDERS[provider];
    return apiKeyVariable ? `${apiKeyVariable} (${label})` : `${baseUrlVariable} (${label})`;
  });
}

function refuseOfflineModel(modelId: string): void {
  const provider = PROVIDERS[parseModelId(modelId).provider];
  if (!provider.inProcess) return;
  throw new RequestError(
    "language_model_required",
    `The copilot needs a language model; ${modelId} only echoes its prompt. Store one of these keys as a secret in Settings (or set it on the server) and pick that provider's model: ${languageModelSettings().join(", ")}.`,
    [{ path: "model", message: "the offline model is not a language model" }],
  );
}

/** The workspace's monthly cap as a ledger the model calls reserve against (none: no budget). */
async function monthlyBudget(
  repositories: CopilotDependencies["repositories"],
  workspaceId: string,
): Promise<BlockBudget | undefined> {
  const cap = (await repositories.budgets.caps(workspaceId)).find((each) => each.scope === "workspace");
  if (!cap) return undefined;
  const spent = await repositories.budgets.spentThisMonth(workspaceId);
  const ledger = new SpendLedger({
    caps: [{ maxCost: cap.monthlyCap, source: "workspace-monthly", spentBefore: spent }],
  });
  return ledger.forBlock("Copilot", () => {});
}

/**
 * A run of the workflow as the copilot is told of it: its status and error, and each span's block,
 * kind, status, error and duration. Inputs and outputs are withheld (errors are stored with secret
 * values masked, as everywhere). A run of another workflow is not found.
 */
async function explainedRun(
  repositories: CopilotDependencies["repositories"],
  workspaceId: string,
  workflowId: string,
  runId: string,
) {
  const run = await repositories.runs.getWithSpans(workspaceId, runId);
  if (run.workflowId !== workflowId) throw new NotFoundError("Run", runId);
  return {
    status: run.status,
    error: run.error,
    trace: run.spans.map((span) => ({
      block: span.blockName,
      blockType: span.blockType,
      kind: span.kind,
      ...(span.name && span.kind !== "block" ? { name: span.name } : {}),
      status: span.status,
      ...(span.error ? { error: span.error } : {}),
      ...(span.durationMs === undefined ? {} : { durationMs: span.durationMs }),
      output: "(withheld)",
    })),
  };
}

/**
 * One copilot request: the model edits a copy of the draft through checked tools, in the AI SDK's
 * tool loop (at most COPILOT_MAX_STEPS model calls). Nothing is stored but what the request spent
 * (a run with trigger `copilot`); the answer is the proposal.
 */
export function createCopilot(deps: CopilotDependencies) {
  async function ask(
    workspaceId: string,
    workflowId: string,
    request: CopilotRequest,
    signal: AbortSignal,
  ): Promise<CopilotAnswer> {
    const { repositories } = deps;
    refuseOfflineModel(request.model);
    const workflow = await repositories.workflows.get(workspaceId, workflowId);
    if (workflow.version !== request.version)
      throw new VersionConflictError(workflowId, request.version, workflow.version);
    const { id: _id, version: _version, createdAt: _created, updatedAt: _updated, ...document } = workflow;
    const model = await deps.resolveModel(workspaceId, request.model);
    const names = {
      ...(await repositories.copilot.names(workspaceId, workflowId)),
      mcpServers: deps.mcpServerNames(workspaceId),
    };
    const run =
      request.runId === undefined
        ? undefined
        : await explainedRun(repositories, workspaceId, workflowId, request.runId);
    const editor = new DraftEditor(document, (candidate) => deps.checkStored(workspaceId, candidate));
    const budget = await monthlyBudget(repositories, workspaceId);
    const calls: CopilotCall[] = [];
    const startedAt = new Date();
    let answer: { text: string; finishReason: string; steps: number };
    try {
      const result = await runModel({
        model,
        system: copilotSystemPrompt({ document, names, model: request.model, ...(run ? { run } : {}) }),
        messages: [{ role: "user", content: request.message }],
        tools: copilotTools(editor),
        maxSteps: COPILOT_MAX_STEPS,
        temperature: 0,
        hooks: {
          signal,
          ...(budget ? { budget } : {}),
          startSpan: (options) => {
            const callStarted = new Date();
            const span = {
              id: `copilot-call-${calls.length}`,
              child: () => span,
              end: (end: { usage?: Usage; price?: AppliedPrice; error?: { code: string; message: string } }) => {
                if (!end.usage && !end.error) return;
                calls.push({
                  model: options.model ?? request.model,
                  startedAt: callStarted,
                  endedAt: new Date(),
                  usage: end.usage ?? {
                    tokens: { prompt: 0, completion: 0, total: 0 },
                    cost: { input: 0, output: 0, total: 0 },
                  },
                  ...(end.price ? { price: end.price } : {}),
                  ...(end.error ? { error: end.error } : {}),
                });
              },
            };
            return span;
          },
        },
      });
      answer = { text: result.text, finishReason: result.finishReason, steps: result.calls.length };
    } catch (error) {
      await record(workspaceId, workflowId, calls, startedAt, error);
      if (isTrellisError(error) && error.code === "budget_exceeded")
        throw new RequestError("budget_reached", `${error.message} Nothing more was sent to the model.`);
      throw error;
    }
    const total = await record(workspaceId, workflowId, calls, startedAt);
    const changed = editor.changes.length > 0;
    const [before, after] = changed
      ? await Promise.all([
          deps.estimate(workspaceId, workflowId, document),
          deps.estimate(workspaceId, workflowId, editor.document),
        ])
      : [null, null];
    return {
      answer: answer.text,
      model: request.model,
      baseVersion: workflow.version,
      proposal: changed
        ? { document: editor.document, changes: editor.changes, diff: diffDocuments(document, editor.document) }
        : null,
      refused: editor.refused,
      stepCapReached: answer.steps >= COPILOT_MAX_STEPS && answer.finishReason === "tool-calls",
      estimate: before && after ? { before, after } : null,
      usage: { tokens: total.tokens, cost: total.cost, calls: calls.length },
    };
  }

  /** Stores what the request spent (even when it failed): usage and the budget count it. */
  async function record(
    workspaceId: string,
    workflowId: string,
    calls: CopilotCall[],
    startedAt: Date,
    error?: unknown,
  ): Promise<Usage> {
    const total = sumUsage(calls.map((call) => call.usage));
    if (calls.length === 0) return total;
    const failed =
      error === undefined
        ? undefined
        : {
            code: isTrellisError(error) ? error.code : "internal_error",
            message: error instanceof Error ? error.message : String(error),
          };
    try {
      await deps.repositories.copilot.record(workspaceId, workflowId, {
        total,
        calls,
        startedAt,
        ...(failed ? { failed } : {}),
      });
    } catch (recordError) {
      processLogger().error({ err: recordError, workflowId }, "the copilot's usage could not be recorded");
      if (error === undefined) throw recordError;
    }
    return total;
  }

  return { ask };
}

export type Copilot = ReturnType<typeof createCopilot>;
