import "server-only";
import type { ProviderConnectionCheck, ProviderList } from "@/contract";
import { endpoint } from "@/lib/http/endpoint";
import { RequestError } from "@/lib/http/errors";
import {
  checkProviderConnection,
  isProviderId,
  providerEnvOf,
  providerStatuses,
  type EnvReader,
  type ProviderEnvInput,
} from "@/providers";

/**
 * Model providers for a workspace (docs/CONTRACT.md section 4, "Model providers"): where each
 * provider's key comes from, read as a run of the workspace reads it, and "test connection". Keys
 * are set through the secret endpoints (the secret named like the key's variable), so a key set
 * here is the one a run uses, and nothing here ever answers with one.
 */
export function providerEndpoints(
  /** The provider settings a run of the workspace would read (its secrets, then the server's variables). */
  providerEnv: (workspaceId: string) => Promise<ProviderEnvInput>,
  /** The fetch model calls go through (the outbound guard, the operator's servers allowed). */
  providerFetch: (operator: EnvReader) => typeof globalThis.fetch,
) {
  return {
    list: endpoint("listProviders", async (_request, _params, member) => {
      const env = await providerEnv(member.workspace.id);
      return Response.json({ providers: providerStatuses(env) } satisfies ProviderList);
    }),
    test: endpoint("testProviderConnection", async (_request, params, member) => {
      const provider = params.provider;
      if (!isProviderId(provider))
        throw new RequestError("not_found", `There is no model provider "${provider.slice(0, 64)}".`);
      const env = await providerEnv(member.workspace.id);
      const result = await checkProviderConnection(provider, env, providerFetch(providerEnvOf(env).operator));
      return Response.json(result satisfies ProviderConnectionCheck);
    }),
  };
}

export type ProviderEndpoints = ReturnType<typeof providerEndpoints>;
