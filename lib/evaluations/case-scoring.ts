import "server-only";
import { OFFLINE_EMBEDDER_ID, scorerName, type Score, type Scorer } from "@/contract";
import type { BlockBudget, ChildSpan, HandlerContext } from "@/executor";
import type { ScoringKit } from "./scoring-tools";
import { isLocalScorer, pick, scoreLocally, textOf, type CaseOutcome, type ScoreResult } from "./text-scorers";

/** Runs a scoring workflow with `{ input, output, expected }` and answers its output and cost. */
export type RunScoringWorkflow = (
  workflowId: string,
  input: { input: Record<string, unknown>; output: unknown; expected: unknown },
) => Promise<{ output: unknown; cost: number; failed: string | null }>;

export interface CaseScoringDependencies {
  kit: () => Promise<ScoringKit>;
  runWorkflow: RunScoringWorkflow;
  /** The evaluation's budget, when it has one: judge and embedding calls are held to it too. */
  budget?: BlockBudget;
  signal: AbortSignal;
  evaluationId: string;
  workflowId: string;
}

/** A case's scores, its weighted mean, and what the scorers spent. */
export interface CaseScores {
  scores: Score[];
  score: number;
  scoringCost: number;
}

/**
 * Scores one case with every scorer of the suite. A scorer that cannot answer (a judge whose
 * model failed, a scoring workflow that failed) scores 0 with the reason, so one broken call
 * marks its case rather than the whole evaluation; a budget refusal is thrown, to stop it.
 */
export async function scoreCase(
  scorers: readonly Scorer[],
  outcome: CaseOutcome,
  dependencies: CaseScoringDependencies,
): Promise<CaseScores> {
  let scoringCost = 0;
  const scores: Score[] = [];
  for (const [index, scorer] of scorers.entries()) {
    const spent = (dollars: number | null | undefined) => {
      scoringCost += dollars ?? 0;
    };
    let result: ScoreResult;
    if (isLocalScorer(scorer)) result = scoreLocally(scorer, outcome);
    else if (scorer.type === "judge") result = await judge(scorer, outcome, dependencies, spent);
    else if (scorer.type === "similarity") result = await similarity(scorer, outcome, dependencies, spent);
    else result = await scoringWorkflow(scorer, outcome, dependencies, spent);
    scores.push({
      scorer: scorerName(scorer, index, scorers),
      score: clamp(result.score),
      reason: result.reason,
      weight: scorer.weight,
    });
  }
  return { scores, score: weightedMean(scores), scoringCost };
}

/** The weighted mean of a case's scores; a suite whose weights are all 0 weighs them equally. */
export function weightedMean(scores: readonly Pick<Score, "score" | "weight">[]): number {
  const weight = scores.reduce((sum, item) => sum + item.weight, 0);
  if (scores.length === 0) return 0;
  if (weight === 0) return scores.reduce((sum, item) => sum + item.score, 0) / scores.length;
  return scores.reduce((sum, item) => sum + item.score * item.weight, 0) / weight;
}

function clamp(score: number): number {
  return Number.isFinite(score) ? Math.min(1, Math.max(0, score)) : 0;
}

function failedBecause(what: string, error: unknown): ScoreResult {
  return { score: 0, reason: `${what} failed: ${error instanceof Error ? error.message : String(error)}` };
}

function isBudgetRefusal(error: unknown): boolean {
  return error instanceof Error && (error as { code?: string }).code === "budget_exceeded";
}

/** A child span that records nothing: a judge's model call is reported through its usage, not a trace. */
const untracedSpan = (): ChildSpan => ({ id: "scorer", child: untracedSpan, end: () => {} });

/** The LLM judge: the Evaluator block's handler, with one metric `score` from 0 to 1 described by the rubric. */
async function judge(
  scorer: Extract<Scorer, { type: "judge" }>,
  outcome: CaseOutcome,
  dependencies: CaseScoringDependencies,
  spent: (dollars: number | null | undefined) => void,
): Promise<ScoreResult> {
  const content = [
    `Input:\n${textOf(outcome.input)}`,
    ...(outcome.expected === undefined ? [] : [`Expected answer:\n${textOf(outcome.expected)}`]),
    `Answer to score:\n${textOf(outcome.output)}`,
  ].join("\n\n");
  const config = {
    model: scorer.model,
    content,
    metrics: [
      {
        name: "score",
        description: `How well the answer meets this rubric: ${scorer.rubric}`,
        range: { min: 0, max: 1 },
      },
    ],
    // The case's reason is the judge's own, not just its number.
    explain: true,
  };
  const kit = await dependencies.kit();
  const prepared = kit.evaluator.prepare(config);
  if (!prepared.ok)
    return { score: 0, reason: `the judge's settings are invalid: ${prepared.issues[0]?.message ?? ""}` };
  const context: HandlerContext = {
    runId: dependencies.evaluationId,
    workflowId: dependencies.workflowId,
    block: {
      id: "judge",
      type: "evaluator",
      name: "Judge",
      position: { x: 0, y: 0 },
      parentId: null,
      enabled: true,
      config,
    },
    signal: dependencies.signal,
    emitDelta: () => {},
    startSpan: untracedSpan,
    outgoingTargets: [],
    variables: {},
    depth: 0,
    ...(dependencies.budget ? { budget: dependencies.budget } : {}),
  };
  try {
    const result = await prepared.value({ inputs: {}, context });
    spent(result.usage?.cost?.total);
    const score = Number(result.output.score);
    const reasoning = typeof result.output.reasoning === "string" ? result.output.reasoning : "";
    return { score, reason: reasoning || `${scorer.model} scored ${score} against the rubric` };
  } catch (error) {
    if (isBudgetRefusal(error)) throw error;
    spent((error as { spent?: { cost?: { total?: number } | null } }).spent?.cost?.total);
    return failedBecause("the judge", error);
  }
}

/** Cosine similarity of the output's and the expected output's embeddings, below 0 counted as 0. */
async function similarity(
  scorer: Extract<Scorer, { type: "similarity" }>,
  outcome: CaseOutcome,
  dependencies: CaseScoringDependencies,
  spent: (dollars: number | null | undefined) => void,
): Promise<ScoreResult> {
  if (outcome.expected === undefined) return { score: 0, reason: "the case has no expected output to compare with" };
  const model = scorer.model ?? OFFLINE_EMBEDDER_ID;
  try {
    const embedder = (await dependencies.kit()).embedder(model);
    const output = textOf(pick(outcome.output, scorer.field));
    const batch = await embedder.embed([output, textOf(outcome.expected)], { signal: dependencies.signal });
    spent(batch.usage.cost?.total);
    const [a = [], b = []] = batch.embeddings;
    const score = Math.max(0, cosine(a, b));
    return { score, reason: `similarity ${score.toFixed(3)} to the expected output (${model})` };
  } catch (error) {
    return failedBecause(`embedding with ${model}`, error);
  }
}

function cosine(a: readonly number[], b: readonly number[]): number {
  let dot = 0;
  let normA = 0;
  let normB = 0;
  for (let index = 0; index < Math.min(a.length, b.length); index++) {
    dot += a[index]! * b[index]!;
    normA += a[index]! ** 2;
    normB += b[index]! ** 2;
  }
  return normA === 0 || normB === 0 ? 0 : dot / Math.sqrt(normA * normB);
}

/** A workflow of the workspace as the scorer: it answers a number from 0 to 1, or `{ score, reason }`. */
async function scoringWorkflow(
  scorer: Extract<Scorer, { type: "workflow" }>,
  outcome: CaseOutcome,
  dependencies: CaseScoringDependencies,
  spent: (dollars: number | null | undefined) => void,
): Promise<ScoreResult> {
  try {
    const { output, cost, failed } = await dependencies.runWorkflow(scorer.workflowId, {
      input: outcome.input,
      output: outcome.output,
      expected: outcome.expected ?? null,
    });
    spent(cost);
    if (failed) return { score: 0, reason: `the scoring workflow failed: ${failed}` };
    const answer =
      output !== null && typeof output === "object" && "score" in output
        ? (output as { score: unknown; reason?: unknown })
        : { score: output };
    const score = typeof answer.score === "string" ? Number(answer.score) : answer.score;
    if (typeof score !== "number" || !Number.isFinite(score) || score < 0 || score > 1)
      return {
        score: 0,
        reason: `the scoring workflow answered ${textOf(answer.score).slice(0, 60)}, not a number from 0 to 1`,
      };
    return {
      score,
      reason: typeof answer.reason === "string" ? answer.reason : `the scoring workflow scored ${score}`,
    };
  } catch (error) {
    if (isBudgetRefusal(error)) throw error;
    return failedBecause("the scoring workflow", error);
  }
}
