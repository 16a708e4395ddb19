import { handleErrors } from "@/lib/http/errors";
import { getRepositories } from "@/lib/db";
import { PROVIDERS } from "@/providers";

export const dynamic = "force-dynamic";

/**
 * Names for `{{` completion: stored secrets and the environment variables a workflow may use.
 * Names only, never values; the process environment is limited to names that look like
 * configuration a user set, not the server's internals.
 */
export const GET = handleErrors(async () => {
  const secrets = (await getRepositories().secrets.list()).map((secret) => secret.name);
  const providerNames = Object.values(PROVIDERS).flatMap((provider) => [provider.apiKeyVariable, provider.baseUrlVariable]).filter((name): name is string => Boolean(name));
  const configured = providerNames.filter((name) => process.env[name]);
  const names = [...new Set([...secrets, ...configured])].sort();
  return Response.json({ names });
});
