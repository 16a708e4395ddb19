/**
 * The provider layer: Trellis model ids to AI SDK models, prices, token accounting, and the one
 * model-call runner the AI blocks share. Server-only as a whole. `catalog.ts` and `pricing.ts`
 * need no node-only module and no secret, but they read the provider table (and so load the SDK
 * clients): the UI gets the model list from /api/models.
 */
export {
  createModelRegistry,
  DEFAULT_CALL_TIMEOUT_MS,
  type ModelRegistry,
  type ModelRegistryOptions,
  type ResolvedModel,
} from "./model-registry";
export {
  runModel,
  interruptedText,
  type ModelCallHooks,
  type ModelRunResult,
  type RejectedToolCall,
  type RunModelOptions,
} from "./model-call";
export { sdkProviderOptions } from "./model-options";
export { listModels, describeModel, OFFLINE_MODEL_ID, type CatalogModel } from "./catalog";
export {
  resolvePricing,
  catalogPricing,
  computeCost,
  priceUsage,
  priceCall,
  appliedPrice,
  type ModelPricing,
  type PriceTable,
  type PricedCall,
  type PricingOptions,
} from "./pricing";
export { PRICE_CATALOG, pricedModels, checkPriceModel } from "./price-catalog";
export { usageOfCall, pricedCallOf, usageOutputFields, tokensFromSdkUsage } from "./usage-mapping";
export {
  countTokens,
  measureTokens,
  measureTokensAsync,
  tokenizerReady,
  TOKENIZER_NAME,
  type TokenCount,
} from "./token-counter";
export { BytePairEncoder } from "./encoding";
export { providerEnvOf, type EnvReader, type ProviderEnv, type ProviderEnvInput } from "./env";
export { PROVIDER_IDS, PROVIDERS, isProviderId, type ProviderId } from "./provider-table";
export {
  createProviderFetch,
  providerFetchCache,
  operatorBaseUrl,
  operatorEndpoints,
  providerConnection,
  workspaceBaseUrlError,
} from "./provider-settings";
export { missingProviderSetting, withProviderReadiness } from "./provider-readiness";
export { providerStatuses, providerKeySource } from "./provider-status";
export { checkProviderConnection } from "./provider-connection-check";
export { parseModelId } from "./model-id";
export { StreamInterruptedError, StructuredOutputError, toTrellisError } from "./provider-errors";
export { DEFAULT_RETRY_POLICY, type RetryPolicy } from "./retry-policy";
export {
  createOfflineModel,
  DEFAULT_OFFLINE_WORD_DELAY_MS,
  OFFLINE_WORD_DELAY_ENV,
  offlinePaceFrom,
  type OfflinePace,
} from "./offline/offline-model";
export { fallsBack, withFallbacks } from "./model-fallbacks";
