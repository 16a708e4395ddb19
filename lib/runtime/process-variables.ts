import { PROVIDERS, type EnvReader } from "@/providers";

/*
 * Which process variables mean what to a run, apart from the storage that run-environment.ts reads:
 * the logger masks the same ones (lib/observability/operator-secrets.ts) without importing the database.
 */

/** Comma-separated names of the process variables a workflow may read through `{{NAME}}`. */
export const WORKFLOW_ENV_VARIABLE = "TRELLIS_WORKFLOW_ENV";

const VARIABLE_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** The variables the provider layer is configured by (keys and base URLs, docs/CONTRACT.md section 4). */
export const PROVIDER_VARIABLES: ReadonlySet<string> = new Set(
  Object.values(PROVIDERS)
    .flatMap((provider) => [provider.apiKeyVariable, provider.baseUrlVariable])
    .filter((name): name is string => Boolean(name)),
);

/** The provider variables holding keys: masked in a run even though no workflow can read them. */
export const PROVIDER_KEY_VARIABLES = Object.values(PROVIDERS).flatMap((provider) =>
  provider.apiKeyVariable ? [provider.apiKeyVariable] : [],
);

/** The process variables named in TRELLIS_WORKFLOW_ENV (malformed entries are ignored). */
export function workflowEnvAllowList(processEnv: EnvReader): string[] {
  const names = (processEnv(WORKFLOW_ENV_VARIABLE) ?? "").split(",").map((name) => name.trim());
  return [...new Set(names.filter((name) => VARIABLE_NAME.test(name)))];
}
