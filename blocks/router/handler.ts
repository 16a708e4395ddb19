import type { ModelMessage } from "ai";
import { BlockExecutionError } from "@/executor/errors";
import type { BlockHandler } from "@/executor/handler";
import { sumUsage } from "@/executor/usage";
import { type Usage } from "@/contract";
import { runModel, type ModelRunError } from "@/providers/model-call";
import type { ModelRegistry } from "@/providers/model-registry";
import { usageOutputFields } from "@/providers/usage-mapping";
import { routerConfigSchema } from "./definition";
import { buildRouterSystemPrompt, correctionMessage, matchCandidate } from "./router-prompt";

export interface RouterHandlerDependencies {
  models: ModelRegistry;
}

function parseConfig(config: unknown) {
  const parsed = routerConfigSchema.safeParse(config);
  if (parsed.success) return parsed.data;
  const problems = parsed.error.issues.map((issue) => `${issue.path.join(".") || "config"}: ${issue.message}`).join("; ");
  throw new BlockExecutionError(`Invalid router config: ${problems}`, { code: "invalid_config" });
}

/**
 * The router block: a model picks one of the blocks its `out` edges reach. An answer that is not
 * a candidate id gets one corrective retry; a second miss fails the block (its error edge, if
 * any, takes over). The engine follows only the edge to `selectedRoute`.
 */
export function createRouterHandler(dependencies: RouterHandlerDependencies): BlockHandler {
  return async ({ config: rawConfig, context }) => {
    const config = parseConfig(rawConfig);
    const candidates = context.outgoingTargets.filter((block) => block.enabled !== false);
    if (candidates.length === 0) {
      throw new BlockExecutionError("The router has no connected blocks to choose from: connect its output to at least one block", { code: "no_route" });
    }
    const model = dependencies.models.resolve(config.model);
    const system = buildRouterSystemPrompt(candidates);
    const messages: ModelMessage[] = [{ role: "user", content: config.prompt }];
    const spent: Usage[] = [];
    const ask = async () => {
      try {
        const result = await runModel({ model, system, messages, temperature: config.temperature, hooks: { signal: context.signal, startSpan: context.startSpan } });
        spent.push(result.usage);
        return result.text;
      } catch (error) {
        const failure = error as ModelRunError;
        if (failure.usageSoFar) failure.usageSoFar = sumUsage([...spent, failure.usageSoFar]);
        throw error;
      }
    };

    let answer = await ask();
    let chosen = matchCandidate(answer, candidates);
    if (!chosen) {
      messages.push({ role: "assistant", content: answer }, { role: "user", content: correctionMessage(answer, candidates) });
      answer = await ask();
      chosen = matchCandidate(answer, candidates);
    }
    const usage = sumUsage(spent);
    if (!chosen) {
      const ids = candidates.map((candidate) => candidate.id).join(", ");
      throw Object.assign(
        new BlockExecutionError(`The router's model did not name a connected block after a correction (answered ${JSON.stringify(answer.trim().slice(0, 100))}; expected one of: ${ids})`, {
          code: "invalid_route",
        }),
        { usageSoFar: usage },
      );
    }
    return {
      output: {
        selectedRoute: chosen.id,
        selectedPath: { blockId: chosen.id, blockType: chosen.type, blockTitle: chosen.name },
        model: model.id,
        ...usageOutputFields(usage),
      },
      usage,
    };
  };
}
