import type { LanguageModelV4, LanguageModelV4StreamPart, LanguageModelV4Usage } from "@ai-sdk/provider";
import { wrapLanguageModel, type LanguageModelMiddleware } from "ai";
import type { BlockBudget, SpendReservation } from "@/core";
import type { PriceTable } from "./pricing";
import { pricedProviderCall } from "./usage-mapping";
import { budgetPricing, countPromptTokens, DEFAULT_BUDGETED_OUTPUT_TOKENS, worstCaseCost } from "./worst-case-cost";

/**
 * A model whose every call (every step of a tool loop) first reserves its worst case against the
 * run's budget: a call that could cross a cap is never sent. The reservation becomes the call's
 * real cost when it finishes. It sits below the block memo, so an answer given again from the
 * memo (a resumed block) asks nothing of the budget: it is not paid for again.
 */
export function budgetedModel(
  model: LanguageModelV4,
  modelId: string,
  budget: BlockBudget,
  overrides?: PriceTable,
): LanguageModelV4 {
  return wrapLanguageModel({ model, middleware: budgetMiddleware(modelId, budget, overrides) });
}

function budgetMiddleware(modelId: string, budget: BlockBudget, overrides?: PriceTable): LanguageModelMiddleware {
  const pricing = budgetPricing(modelId, overrides);
  const reserve = async (
    params: Parameters<NonNullable<LanguageModelMiddleware["wrapStream"]>>[0]["params"],
  ): Promise<SpendReservation> => {
    const maxOutput = params.maxOutputTokens ?? DEFAULT_BUDGETED_OUTPUT_TOKENS;
    const worstCase = pricing ? worstCaseCost(pricing, await countPromptTokens(params), maxOutput) : null;
    return budget.reserve({ model: modelId, worstCase });
  };
  const actualCost = (usage: LanguageModelV4Usage): number | null =>
    pricedProviderCall(modelId, usage, overrides ? { overrides } : {}).usage.cost?.total ?? null;
  return {
    // The limit the worst case counts on must hold: a call with none is sent with the assumed one.
    transformParams: async ({ params }) =>
      params.maxOutputTokens === undefined ? { ...params, maxOutputTokens: DEFAULT_BUDGETED_OUTPUT_TOKENS } : params,
    async wrapGenerate({ doGenerate, params }) {
      const reservation = await reserve(params);
      try {
        const result = await doGenerate();
        reservation.settle(actualCost(result.usage));
        return result;
      } catch (error) {
        reservation.settle(0);
        throw error;
      }
    },
    async wrapStream({ doStream, params }) {
      const reservation = await reserve(params);
      let result;
      try {
        result = await doStream();
      } catch (error) {
        // Refused before any output (a bad key, a rate limit after retries): nothing was billed.
        reservation.settle(0);
        throw error;
      }
      return { ...result, stream: settledStream(result.stream, reservation, actualCost) };
    },
  };
}

/**
 * Settles the reservation at the finish part. A stream that ends otherwise (an error, a cancel)
 * keeps the worst case once some output came (it may have been billed), and releases it when none did.
 */
function settledStream(
  source: ReadableStream<LanguageModelV4StreamPart>,
  reservation: SpendReservation,
  actualCost: (usage: LanguageModelV4Usage) => number | null,
): ReadableStream<LanguageModelV4StreamPart> {
  const reader = source.getReader();
  let output = false;
  const end = () => reservation.settle(output ? null : 0);
  return new ReadableStream<LanguageModelV4StreamPart>({
    async pull(controller) {
      try {
        const { done, value } = await reader.read();
        if (done) {
          end();
          controller.close();
          return;
        }
        if (value.type === "finish") reservation.settle(actualCost(value.usage));
        else if (value.type === "text-delta" || value.type === "tool-call" || value.type === "reasoning-delta")
          output = true;
        controller.enqueue(value);
      } catch (error) {
        end();
        controller.error(error);
      }
    },
    async cancel(reason) {
      end();
      await reader.cancel(reason);
    },
  });
}
