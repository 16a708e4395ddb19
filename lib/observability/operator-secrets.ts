import "server-only";
import { PROVIDER_KEY_VARIABLES, workflowEnvAllowList } from "@/lib/runtime/process-variables";
import type { EnvReader } from "@/providers";

/** Names of process variables whose values are credentials by convention. */
const SECRET_NAME = /(SECRET|PASSWORD|PASSWD|TOKEN|API_KEY|ACCESS_KEY|PRIVATE_KEY|CREDENTIAL)/i;

/** Variables holding `name=value` lists whose values are credentials (an OTLP backend's Authorization header). */
const HEADER_LIST_VARIABLES = ["OTEL_EXPORTER_OTLP_HEADERS", "OTEL_EXPORTER_OTLP_TRACES_HEADERS"];

/** Connection strings whose password part is a credential. */
const URL_VARIABLES = ["DATABASE_URL"];

function headerValues(text: string): string[] {
  return text.split(",").flatMap((pair) => {
    const at = pair.indexOf("=");
    if (at === -1) return [];
    const raw = pair.slice(at + 1).trim();
    try {
      return [raw, decodeURIComponent(raw)];
    } catch {
      return [raw];
    }
  });
}

function urlPassword(text: string): string[] {
  try {
    const password = new URL(text).password;
    return password ? [password, decodeURIComponent(password)] : [];
  } catch {
    return [];
  }
}

/**
 * The operator's credentials in this process's environment, by name: what the server's logs (and
 * its traces) mask as `[secret:NAME]`. Provider keys and the variables workflows may read (as a
 * run masks them), every variable named like a credential, the OTLP headers' values and the
 * database URL's password. Workspace secrets are a run's own: its redactor masks them.
 */
export function operatorSecrets(env: EnvReader, names: Iterable<string>): Map<string, string> {
  const secrets = new Map<string, string>();
  for (const name of [...PROVIDER_KEY_VARIABLES, ...workflowEnvAllowList(env)]) {
    const value = env(name);
    if (value) secrets.set(name, value);
  }
  for (const name of names) {
    const value = env(name);
    if (!value) continue;
    if (SECRET_NAME.test(name)) secrets.set(name, value);
    if (HEADER_LIST_VARIABLES.includes(name))
      headerValues(value).forEach((each, index) => secrets.set(`${name}#${index}`, each));
    if (URL_VARIABLES.includes(name))
      urlPassword(value).forEach((each, index) => secrets.set(`${name}#${index}`, each));
  }
  return secrets;
}
