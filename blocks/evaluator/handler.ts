import "server-only";
import { jsonSchema, Output, type ModelMessage } from "ai";
import { BlockExecutionError, failureCarrying, isTrellisError, type BlockHandler, sumUsage } from "@/executor";
import { type Usage } from "@/contract";
import {
  runModel,
  StructuredOutputError,
  withFallbacks,
  type ModelRegistry,
  type ResolvedModel,
  usageOutputFields,
} from "@/providers";
import type { EvaluatorConfig } from "./definition";
import { buildEvaluatorSystemPrompt, metricKey, REASONING_KEY, scoresSchema, validateScores } from "./evaluator-prompt";

export interface EvaluatorHandlerDependencies {
  models: ModelRegistry;
}

type Attempt = { scores: Record<string, unknown>; problems: string[]; answer: string };

/**
 * The evaluator block: a model scores content on each metric as structured JSON; scores are
 * checked against their ranges; bad JSON or out-of-range scores get one repair retry, then the
 * block fails.
 */
export function createEvaluatorHandler(dependencies: EvaluatorHandlerDependencies): BlockHandler<EvaluatorConfig> {
  return async ({ config, context }) => {
    const explain = config.explain === true;
    const system = buildEvaluatorSystemPrompt(config.metrics, explain);
    const output = Output.object({
      schema: jsonSchema<Record<string, unknown>>(scoresSchema(config.metrics, explain)),
    });
    const messages: ModelMessage[] = [{ role: "user", content: `Content to evaluate:\n\n${config.content}` }];
    const spent: Usage[] = [];

    const call = (model: ResolvedModel) =>
      runModel({
        model,
        system,
        messages,
        temperature: 0,
        output,
        hooks: { signal: context.signal, startSpan: context.startSpan, memo: context.memo, budget: context.budget },
      });
    // The first call tries the fallback models in turn; the repair asks the model that answered.
    let model: ResolvedModel | undefined;
    const attempt = async (): Promise<Attempt> => {
      try {
        let result: Awaited<ReturnType<typeof call>>;
        if (model) result = await call(model);
        else
          ({ result, model } = await withFallbacks(
            dependencies.models,
            [config.model, ...config.fallbackModels],
            spent,
            call,
          ));
        spent.push(result.usage);
        return {
          scores: result.output as Record<string, unknown>,
          problems: validateScores(result.output, config.metrics, explain),
          answer: result.text,
        };
      } catch (error) {
        if (!isTrellisError(error)) throw error;
        if (error.spent) spent.push(error.spent);
        // A non-JSON answer is repairable; anything else (key, network, cancel) is not.
        if (error instanceof StructuredOutputError)
          return { scores: {}, problems: ["the answer is not valid JSON"], answer: error.answerText };
        throw failureCarrying(error, { spent: sumUsage(spent) });
      }
    };

    let result = await attempt();
    if (result.problems.length > 0) {
      messages.push(
        { role: "assistant", content: result.answer },
        {
          role: "user",
          content: `That answer is invalid: ${result.problems.join("; ")}. Answer again with only the JSON object.`,
        },
      );
      result = await attempt();
    }
    const usage = sumUsage(spent);
    if (result.problems.length > 0) {
      throw new BlockExecutionError(
        `The evaluator's model gave invalid scores after a repair attempt: ${result.problems.join("; ")}`,
        {
          code: "invalid_scores",
          spent: usage,
        },
      );
    }
    const scores = Object.fromEntries(
      config.metrics.map((metric) => [metricKey(metric), result.scores[metricKey(metric)] as number]),
    );
    const reasoning = explain ? { [REASONING_KEY]: String(result.scores[REASONING_KEY]).trim() } : {};
    return { output: { ...scores, ...reasoning, model: model!.id, ...usageOutputFields(usage) }, usage };
  };
}
