/**
 * Where provider settings come from. The runtime injects a reader (environment variables today,
 * stored secrets later); nothing in providers/ reads `process.env` itself.
 */
export type EnvReader = (name: string) => string | undefined;

/** Reads a setting, treating blank values as unset. */
export function readSetting(env: EnvReader, name: string | undefined): string | undefined {
  if (!name) return undefined;
  const value = env(name)?.trim();
  return value ? value : undefined;
}
