import type { BlockEstimate, CostRange, WorkflowBlock, WorkflowDocument, WorkflowEstimate } from "@/contract";
import { getBlockDefinition, type ModelUse } from "@/blocks";
import { roundDollars } from "@/executor";
import type { PastRun } from "@/lib/db";
import { computeCost, measureTokens, type ModelPricing } from "@/providers";
import { executionTokens, type ExecutionTokens, type PastExecution } from "./block-tokens";
import { executionsOf, type ExecutionHistory } from "./executions";
import { knownScope, resolveKnown, type KnownScope } from "./known-values";
import { runShape, worstCaseTotal, type RunShape } from "./run-shape";

/** A model's prices, or null when nobody knows them. */
export type PriceLookup = (modelId: string) => ModelPricing | null;

export interface EstimateSources {
  document: Pick<WorkflowDocument, "blocks" | "edges" | "variables">;
  /** The run input as the start block would output it (already checked). */
  input: Record<string, unknown>;
  /** Recent succeeded runs, newest first. */
  history: readonly PastRun[];
  priceOf: PriceLookup;
}

/** The estimate's figures: the answer of the endpoint but for its `estimate: true` mark. */
export type WorkflowEstimateFigures = Omit<WorkflowEstimate, "estimate">;

interface ModelBlock {
  block: WorkflowBlock;
  use: ModelUse<Record<string, unknown>>;
  config: Record<string, unknown>;
}

/** The blocks that call models and can run, with their configs parsed (defaults filled in) by their type's schema. */
function modelBlocks(shape: RunShape, blocks: readonly WorkflowBlock[]): ModelBlock[] {
  const found: ModelBlock[] = [];
  for (const block of blocks) {
    const definition = getBlockDefinition(block.type);
    const use = definition?.modelUse;
    if (!definition || !use || !shape.reachable.has(block.id)) continue;
    const parsed = definition.configSchema.safeParse(block.config ?? {});
    // A config its schema refuses cannot run: saving lists it as an issue, and the run would fail before calling a model.
    if (!parsed.success) continue;
    found.push({ block, use, config: parsed.data as Record<string, unknown> });
  }
  return found;
}

/**
 * Characters one estimate counts exactly, over all its prompts (the input's and the past runs');
 * past them prompts are estimated by bytes. Anyone who may read a workflow asks for estimates with
 * any input, and a count costs 1-5 µs a character: this keeps one request's counting in tens of ms.
 */
export const ESTIMATE_EXACT_TOKEN_CHARS = 64 * 1024;

/** Counts prompts for one estimate: each text once, exactly until the estimate's share is spent. */
function promptCounter(): (text: string) => number {
  let exactLeft = ESTIMATE_EXACT_TOKEN_CHARS;
  const counted = new Map<string, number>();
  return (text) => {
    const known = counted.get(text);
    if (known !== undefined) return known;
    const { tokens } = measureTokens(text, exactLeft);
    exactLeft = Math.max(0, exactLeft - text.length);
    counted.set(text, tokens);
    return tokens;
  };
}

function promptOf(entry: ModelBlock, shape: RunShape, scope: KnownScope, countTokens: (text: string) => number) {
  const known = resolveKnown(entry.config, scope);
  const texts = entry.use.promptTexts(
    known.config,
    shape.outTargets(entry.block.id),
    (type) => getBlockDefinition(type)?.description,
  );
  return { tokens: countTokens(texts.join("\n")), unknownReferences: known.unknownReferences, config: known.config };
}

function safePrice(priceOf: PriceLookup, modelId: string): ModelPricing | null {
  try {
    return priceOf(modelId);
  } catch {
    // A model id of no known provider has no price either.
    return null;
  }
}

function dollars(pricing: ModelPricing, tokens: { prompt: number; completion: number }): number {
  return computeCost(pricing, {
    prompt: tokens.prompt,
    completion: tokens.completion,
    total: tokens.prompt + tokens.completion,
  }).total;
}

function costRange(pricing: ModelPricing, tokens: ExecutionTokens, executions: CostRange): CostRange {
  return {
    low: roundDollars(dollars(pricing, tokens.low) * executions.low),
    expected: roundDollars(dollars(pricing, tokens.expected) * executions.expected),
    high: roundDollars(dollars(pricing, tokens.high) * executions.high),
  };
}

/**
 * What a run of the workflow would cost with this input: per block that calls a model and in
 * total, as low / expected / high (see the README's "Estimates" for every rule and allowance).
 * Pure over its sources: no provider is called and no secret is read.
 */
export function estimateWorkflow(sources: EstimateSources): WorkflowEstimateFigures {
  const { document, history, priceOf } = sources;
  const shape = runShape(document);
  const scope = knownScope(document, sources.input);
  const pastScopes = history.map((run) => ({ run, scope: knownScope(document, run.input) }));
  const blocks: BlockEstimate[] = [];
  const unpriced: string[] = [];
  const highs = new Map<string, number>();
  const countTokens = promptCounter();
  for (const entry of modelBlocks(shape, document.blocks)) {
    const prompt = promptOf(entry, shape, scope, countTokens);
    const past: PastExecution[] = [];
    const executionHistory: ExecutionHistory = { runs: history.length, ranIn: 0, perRun: [] };
    for (const { run, scope: pastScope } of pastScopes) {
      const executions = run.executions.filter((execution) => execution.blockId === entry.block.id);
      if (executions.length === 0) continue;
      executionHistory.ranIn += 1;
      executionHistory.perRun.push(executions.length);
      const knownPrompt = promptOf(entry, shape, pastScope, countTokens).tokens;
      for (const execution of executions) past.push({ ...execution, knownPrompt });
    }
    const tokens = executionTokens(
      {
        knownPrompt: prompt.tokens,
        unknownReferences: prompt.unknownReferences,
        maxCalls: entry.use.maxCalls(prompt.config),
        maxOutputTokens: entry.use.maxOutputTokens(prompt.config),
      },
      past,
    );
    const executions = executionsOf(entry.block.id, shape, scope, executionHistory);
    const model = entry.use.model(prompt.config);
    const pricing = safePrice(priceOf, model);
    const cost = pricing ? costRange(pricing, tokens, executions) : null;
    if (cost) highs.set(entry.block.id, cost.high);
    else unpriced.push(entry.block.id);
    blocks.push({
      blockId: entry.block.id,
      model,
      tokens: {
        prompt: Math.round(tokens.expected.prompt * executions.expected),
        completion: Math.round(tokens.expected.completion * executions.expected),
      },
      cost,
      executions,
      basis: past.length > 0 ? "history" : "defaults",
    });
  }
  const priced = blocks.filter((block) => block.cost !== null);
  const sum = (pick: (cost: CostRange) => number) =>
    roundDollars(priced.reduce((total, block) => total + pick(block.cost!), 0));
  const total: CostRange = {
    low: sum((cost) => cost.low),
    expected: sum((cost) => cost.expected),
    high: roundDollars(worstCaseTotal(shape, (id) => highs.get(id) ?? 0, highs.keys())),
  };
  return { blocks, total, unpriced, historyRuns: history.length };
}
