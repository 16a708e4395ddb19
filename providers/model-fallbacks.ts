import type { ErrorCode, Usage } from "@/contract";
import { isTrellisError } from "@/core";
import type { ModelRegistry, ResolvedModel } from "./model-registry";

/**
 * Fallback models (an extension, from the Lowdefy and Sim seeds): a block's model, then each of
 * its `fallbackModels` in order, each tried when the one before failed at the provider: a model
 * that could not be reached or refused the call, not one that answered badly (a repair handles
 * that) and never a cancel, timeout or spent budget (another model would not change those). Each
 * attempt is its own model call, so the trace shows each with its own span and cost.
 */

/** The provider failures another model may not have. */
const FALLBACK_CODES: ReadonlySet<ErrorCode> = new Set<ErrorCode>([
  "provider_error",
  "provider_unavailable",
  "provider_unreachable",
  "rate_limited",
  "invalid_api_key",
  "missing_api_key",
  "model_not_found",
  "invalid_response",
]);

/** Whether the next fallback model is tried after this error. */
export function fallsBack(error: unknown): boolean {
  return isTrellisError(error) && FALLBACK_CODES.has(error.code);
}

/**
 * Calls `call` with the block's model and, while it fails with a provider error, each fallback in
 * turn; a model is resolved only when its turn comes (a missing key is that model's failure).
 * `spent` receives what each failed attempt spent. The last failure is thrown when all fail.
 */
export async function withFallbacks<T>(
  models: ModelRegistry,
  modelIds: readonly string[],
  spent: Usage[],
  call: (model: ResolvedModel) => Promise<T>,
): Promise<{ result: T; model: ResolvedModel }> {
  for (let index = 0; ; index += 1) {
    const last = index === modelIds.length - 1;
    try {
      const model = models.resolve(modelIds[index]!);
      return { result: await call(model), model };
    } catch (error) {
      if (last || !fallsBack(error)) throw error;
      if (isTrellisError(error) && error.spent) spent.push(error.spent);
    }
  }
}
