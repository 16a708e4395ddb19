/**
 * Where provider settings come from. The runtime injects a reader (environment variables today,
 * stored secrets later); nothing in providers/ reads `process.env` itself.
 */
export type EnvReader = (name: string) => string | undefined;

export type ProviderId = "openai" | "anthropic" | "google" | "ollama" | "openai-compatible" | "offline";

export interface ProviderSettingsSpec {
  label: string;
  /** The variable holding the API key; absent for providers that need none. */
  apiKeyVariable?: string;
  /** Whether a missing key is an error (Ollama and most OpenAI-compatible servers need none). */
  apiKeyRequired: boolean;
  baseUrlVariable?: string;
  defaultBaseUrl?: string;
}

/** CONTRACT.md section 4. Base URLs are passed to the AI SDK clients as they are. */
export const PROVIDER_SETTINGS: Record<ProviderId, ProviderSettingsSpec> = {
  openai: {
    label: "OpenAI",
    apiKeyVariable: "OPENAI_API_KEY",
    apiKeyRequired: true,
    baseUrlVariable: "OPENAI_BASE_URL",
    defaultBaseUrl: "https://api.openai.com/v1",
  },
  anthropic: {
    label: "Anthropic",
    apiKeyVariable: "ANTHROPIC_API_KEY",
    apiKeyRequired: true,
    baseUrlVariable: "ANTHROPIC_BASE_URL",
    defaultBaseUrl: "https://api.anthropic.com/v1",
  },
  google: {
    label: "Google",
    apiKeyVariable: "GOOGLE_GENERATIVE_AI_API_KEY",
    apiKeyRequired: true,
    baseUrlVariable: "GOOGLE_GENERATIVE_AI_BASE_URL",
    defaultBaseUrl: "https://generativelanguage.googleapis.com/v1beta",
  },
  ollama: {
    label: "Ollama",
    apiKeyRequired: false,
    baseUrlVariable: "OLLAMA_BASE_URL",
    defaultBaseUrl: "http://127.0.0.1:11434",
  },
  "openai-compatible": {
    label: "OpenAI-compatible server",
    apiKeyVariable: "OPENAI_COMPATIBLE_API_KEY",
    apiKeyRequired: false,
    baseUrlVariable: "OPENAI_COMPATIBLE_BASE_URL",
  },
  offline: { label: "Built-in offline model", apiKeyRequired: false },
};

export function isProviderId(value: string): value is ProviderId {
  return Object.hasOwn(PROVIDER_SETTINGS, value);
}

/** Reads a setting, treating blank values as unset. */
export function readSetting(env: EnvReader, name: string | undefined): string | undefined {
  if (!name) return undefined;
  const value = env(name)?.trim();
  return value ? value : undefined;
}
