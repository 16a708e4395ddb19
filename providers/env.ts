/**
 * Where provider settings come from. The runtime injects readers (the process environment, a
 * workspace's stored secrets); nothing in providers/ reads `process.env` itself.
 */
export type EnvReader = (name: string) => string | undefined;

/**
 * A provider's settings by source. API keys: the workspace's stored secret, else the operator's
 * variable. Base URLs: the operator's alone, since the server sends requests (and keys) to them; a
 * workspace secret named like one is refused, never used (docs/sandbox-and-outbound.md).
 */
export interface ProviderEnv {
  /** The operator's settings: the server's environment (its provider variables). */
  operator: EnvReader;
  /** The workspace's stored secrets; absent where no workspace is involved. */
  workspace?: EnvReader;
}

/** A plain reader is the operator's settings with no workspace (listings, tests). */
export type ProviderEnvInput = EnvReader | ProviderEnv;

export function providerEnvOf(input: ProviderEnvInput): ProviderEnv {
  return typeof input === "function" ? { operator: input } : input;
}

/** Reads a setting, treating blank values as unset. */
export function readSetting(env: EnvReader | undefined, name: string | undefined): string | undefined {
  if (!name || !env) return undefined;
  const value = env(name)?.trim();
  return value ? value : undefined;
}
