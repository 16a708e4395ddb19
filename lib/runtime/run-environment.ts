import "server-only";
import type { SecretRepository } from "@/lib/db";
import type { EnvReader, ProviderEnv } from "@/providers";
import { PROVIDER_KEY_VARIABLES, PROVIDER_VARIABLES, workflowEnvAllowList } from "./process-variables";

export { PROVIDER_VARIABLES, WORKFLOW_ENV_VARIABLE, workflowEnvAllowList } from "./process-variables";

/** What a run reads its settings through: two readers, never mixed up. */
export interface RunEnvironment {
  /**
   * `{{NAME}}` in block configs: stored secrets, then only the process variables listed in
   * TRELLIS_WORKFLOW_ENV. Nothing else of the server's environment is readable by a workflow.
   */
  workflowEnv: EnvReader;
  /**
   * The model registry's settings. `operator`: the process's provider variables only
   * (OPENAI_API_KEY, OPENAI_BASE_URL, ...), so the operator's keys run models without a workflow
   * being able to read them. `workspace`: the provider variables the workspace stored as secrets;
   * its keys are used before the operator's, its base URLs are refused (providers/provider-settings.ts),
   * since a provider's server is the operator's to choose.
   */
  providerEnv: ProviderEnv;
  /** Every value the run could show, by name: what its redactor masks. */
  masked: ReadonlyMap<string, string>;
}

/** The provider reader over the process environment alone (no stored secrets): for listing, never for a run. */
export function processProviderEnv(processEnv: EnvReader): EnvReader {
  return (name) => (PROVIDER_VARIABLES.has(name) ? processEnv(name) : undefined);
}

/** A run's two readers over its stored secrets (read once, when it starts) and the process environment. */
export function createRunEnvironment(stored: ReadonlyMap<string, string>, processEnv: EnvReader): RunEnvironment {
  const allowed = new Map<string, string>();
  for (const name of workflowEnvAllowList(processEnv)) {
    const value = processEnv(name);
    if (value !== undefined) allowed.set(name, value);
  }
  const processProviders = processProviderEnv(processEnv);
  const masked = new Map<string, string>([...stored, ...[...allowed].filter(([name]) => !stored.has(name))]);
  for (const name of PROVIDER_KEY_VARIABLES) {
    const value = processProviders(name);
    if (value !== undefined && !masked.has(name)) masked.set(name, value);
  }
  return {
    workflowEnv: (name) => stored.get(name) ?? allowed.get(name),
    providerEnv: {
      operator: processProviders,
      workspace: (name) => (PROVIDER_VARIABLES.has(name) ? stored.get(name) : undefined),
    },
    masked,
  };
}

/** The names `{{NAME}}` can read (stored secret names and the allowed process variables that are set), sorted; never values. */
export function workflowEnvNames(storedNames: readonly string[], processEnv: EnvReader): string[] {
  const allowed = workflowEnvAllowList(processEnv).filter((name) => processEnv(name) !== undefined);
  return [...new Set([...storedNames, ...allowed])].sort();
}

/** A run's readers for one workspace: its stored secrets as they are now, then the process environment. */
export async function loadRunEnvironment(
  secrets: Pick<SecretRepository, "list" | "getMany">,
  workspaceId: string,
  processEnv: EnvReader,
): Promise<RunEnvironment> {
  const names = (await secrets.list(workspaceId)).map((secret) => secret.name);
  return createRunEnvironment(await secrets.getMany(workspaceId, names), processEnv);
}
