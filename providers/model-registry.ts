import "server-only";
import type { LanguageModelV4 } from "@ai-sdk/provider";
import { providerEnvOf, type ProviderEnvInput } from "./env";
import { parseModelId } from "./model-id";
import type { OfflinePace } from "./offline/offline-model";
import type { PriceTable } from "./pricing";
import { createProviderFetch, providerConnection } from "./provider-settings";
import { PROVIDERS, type ProviderId } from "./provider-table";
import { makeResilient } from "./resilient-model";
import { DEFAULT_RETRY_POLICY, type RetryPolicy } from "./retry-policy";

/** A Trellis model id resolved to an AI SDK model, with what a call needs to report on it. */
export interface ResolvedModel {
  /** Trellis id, `provider/model`. */
  id: string;
  provider: ProviderId;
  model: LanguageModelV4;
  /** Time limit of one model call (one step of a tool loop). */
  timeoutMs: number;
  /** Secret values to scrub from error messages. */
  secrets: string[];
  /** The workspace's own prices, which its calls are charged at before the operator's and the catalog's. */
  workspacePrices?: PriceTable;
}

export interface ModelRegistry {
  /** Throws ProviderCallError for a malformed id, an unknown provider or a missing key. */
  resolve(modelId: string): ResolvedModel;
}

export interface ModelRegistryOptions {
  /**
   * Reads keys and base URLs (docs/CONTRACT.md section 4); injected, never `process.env` directly.
   * A plain reader is the operator's settings; `{ operator, workspace }` adds a workspace's stored
   * keys (its stored base URLs are refused, provider-settings.ts).
   */
  env: ProviderEnvInput;
  /**
   * The fetch every provider client uses: a guarded one (createProviderFetch), which the
   * composition root shares across runs. Default: one over the operator's provider servers.
   */
  fetch?: typeof globalThis.fetch;
  retry?: Partial<RetryPolicy>;
  /** Per-call time limit; default 120 s. */
  callTimeoutMs?: number;
  /** The workspace's price overrides, read once when its run starts (a change applies from the next run). */
  workspacePrices?: PriceTable;
  /** How fast the offline model streams; default one word per DEFAULT_OFFLINE_WORD_DELAY_MS. */
  offlinePace?: OfflinePace;
}

export const DEFAULT_CALL_TIMEOUT_MS = 120_000;

export function createModelRegistry(options: ModelRegistryOptions): ModelRegistry {
  const policy: RetryPolicy = { ...DEFAULT_RETRY_POLICY, ...options.retry };
  const timeoutMs = options.callTimeoutMs ?? DEFAULT_CALL_TIMEOUT_MS;
  let defaultFetch: typeof globalThis.fetch | undefined;
  // No provider client reaches the network without the outbound guard: made on first use, as the offline model needs none.
  const guardedFetch = () =>
    options.fetch ?? (defaultFetch ??= createProviderFetch(providerEnvOf(options.env).operator));
  return {
    resolve(modelId) {
      const { provider, model } = parseModelId(modelId);
      const entry = PROVIDERS[provider];
      const connection = providerConnection(options.env, provider, entry.inProcess ? undefined : guardedFetch());
      if (entry.inProcess && options.offlinePace) connection.pace = options.offlinePace;
      const languageModel = entry.languageModel(model, connection);
      return {
        id: modelId,
        provider,
        model: entry.inProcess ? languageModel : makeResilient(languageModel, policy),
        timeoutMs,
        secrets: connection.apiKey ? [connection.apiKey] : [],
        ...(options.workspacePrices ? { workspacePrices: options.workspacePrices } : {}),
      };
    },
  };
}
