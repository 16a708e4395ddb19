import "server-only";
import type { ModelMessage } from "ai";
import { BlockExecutionError, failureCarrying, isTrellisError, type BlockHandler, sumUsage } from "@/executor";
import { type Usage } from "@/contract";
import { runModel, withFallbacks, type ModelRegistry, type ResolvedModel, usageOutputFields } from "@/providers";
import { getBlockDefinition } from "../definitions";
import type { RouterConfig } from "./definition";
import { buildRouterSystemPrompt, correctionMessage, matchCandidate } from "./router-prompt";

export interface RouterHandlerDependencies {
  models: ModelRegistry;
}

/**
 * The router block: a model picks one of the blocks its `out` edges reach. An answer that is not
 * a candidate id gets one corrective retry; a second miss fails the block (its error edge, if
 * any, takes over). The engine follows only the edge to `selectedRoute`.
 */
export function createRouterHandler(dependencies: RouterHandlerDependencies): BlockHandler<RouterConfig> {
  return async ({ config, context }) => {
    const candidates = context.outgoingTargets.filter((block) => block.enabled !== false);
    if (candidates.length === 0) {
      throw new BlockExecutionError(
        "The router has no connected blocks to choose from: connect its output to at least one block",
        { code: "no_route" },
      );
    }
    const system = buildRouterSystemPrompt(candidates, (type) => getBlockDefinition(type)?.description);
    const messages: ModelMessage[] = [{ role: "user", content: config.prompt }];
    const spent: Usage[] = [];
    const call = (model: ResolvedModel) =>
      runModel({
        model,
        system,
        messages,
        temperature: config.temperature,
        hooks: { signal: context.signal, startSpan: context.startSpan, memo: context.memo, budget: context.budget },
      });
    // The first call tries the fallback models in turn; the correction asks the model that answered.
    let model: ResolvedModel | undefined;
    const ask = async () => {
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
        return result.text;
      } catch (error) {
        // The first call, when this is the correction, was spent too.
        throw isTrellisError(error)
          ? failureCarrying(error, { spent: sumUsage(error.spent ? [...spent, error.spent] : spent) })
          : error;
      }
    };

    let answer = await ask();
    let chosen = matchCandidate(answer, candidates);
    if (!chosen) {
      messages.push(
        { role: "assistant", content: answer },
        { role: "user", content: correctionMessage(answer, candidates) },
      );
      answer = await ask();
      chosen = matchCandidate(answer, candidates);
    }
    const usage = sumUsage(spent);
    if (!chosen) {
      const ids = candidates.map((candidate) => candidate.id).join(", ");
      throw new BlockExecutionError(
        `The router's model did not name a connected block after a correction (answered ${JSON.stringify(answer.trim().slice(0, 100))}; expected one of: ${ids})`,
        {
          code: "invalid_route",
          spent: usage,
        },
      );
    }
    return {
      output: {
        selectedRoute: chosen.id,
        selectedPath: { blockId: chosen.id, blockType: chosen.type, blockTitle: chosen.name },
        model: model!.id,
        ...usageOutputFields(usage),
      },
      usage,
    };
  };
}
