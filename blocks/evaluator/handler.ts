import { jsonSchema, Output, type ModelMessage } from "ai";
import { BlockExecutionError, TrellisError } from "@/executor/errors";
import type { BlockHandler } from "@/executor/handler";
import { sumUsage } from "@/executor/usage";
import { type Usage } from "@/contract";
import { runModel, type ModelRunError } from "@/providers/model-call";
import type { ModelRegistry } from "@/providers/model-registry";
import { usageOutputFields } from "@/providers/usage-mapping";
import { evaluatorConfigSchema } from "./definition";
import { buildEvaluatorSystemPrompt, metricKey, scoresSchema, validateScores } from "./evaluator-prompt";

export interface EvaluatorHandlerDependencies {
  models: ModelRegistry;
}

function parseConfig(config: unknown) {
  const parsed = evaluatorConfigSchema.safeParse(config);
  if (parsed.success) return parsed.data;
  const problems = parsed.error.issues.map((issue) => `${issue.path.join(".") || "config"}: ${issue.message}`).join("; ");
  throw new BlockExecutionError(`Invalid evaluator config: ${problems}`, { code: "invalid_config" });
}

type Attempt = { scores: Record<string, unknown>; problems: string[]; answer: string };

/**
 * The evaluator block: a model scores content on each metric as structured JSON; scores are
 * checked against their ranges; bad JSON or out-of-range scores get one repair retry, then the
 * block fails.
 */
export function createEvaluatorHandler(dependencies: EvaluatorHandlerDependencies): BlockHandler {
  return async ({ config: rawConfig, context }) => {
    const config = parseConfig(rawConfig);
    const model = dependencies.models.resolve(config.model);
    const system = buildEvaluatorSystemPrompt(config.metrics);
    const output = Output.object({ schema: jsonSchema<Record<string, unknown>>(scoresSchema(config.metrics)) });
    const messages: ModelMessage[] = [{ role: "user", content: `Content to evaluate:\n\n${config.content}` }];
    const spent: Usage[] = [];

    const attempt = async (): Promise<Attempt> => {
      try {
        const result = await runModel({ model, system, messages, temperature: 0, output, hooks: { signal: context.signal, startSpan: context.startSpan } });
        spent.push(result.usage);
        return { scores: result.output as Record<string, unknown>, problems: validateScores(result.output, config.metrics), answer: result.text };
      } catch (error) {
        const failure = error as ModelRunError;
        if (failure.usageSoFar) spent.push(failure.usageSoFar);
        // A non-JSON answer is repairable; anything else (key, network, cancel) is not.
        if (error instanceof TrellisError && error.code === "invalid_structured_output") {
          return { scores: {}, problems: ["the answer is not valid JSON"], answer: failure.answerText ?? "" };
        }
        failure.usageSoFar = sumUsage(spent);
        throw error;
      }
    };

    let result = await attempt();
    if (result.problems.length > 0) {
      messages.push(
        { role: "assistant", content: result.answer },
        { role: "user", content: `That answer is invalid: ${result.problems.join("; ")}. Answer again with only the JSON object.` },
      );
      result = await attempt();
    }
    const usage = sumUsage(spent);
    if (result.problems.length > 0) {
      throw Object.assign(
        new BlockExecutionError(`The evaluator's model gave invalid scores after a repair attempt: ${result.problems.join("; ")}`, { code: "invalid_scores" }),
        { usageSoFar: usage },
      );
    }
    const scores = Object.fromEntries(config.metrics.map((metric) => [metricKey(metric), result.scores[metricKey(metric)] as number]));
    return { output: { ...scores, model: model.id, ...usageOutputFields(usage) }, usage };
  };
}
