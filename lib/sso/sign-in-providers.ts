import "server-only";
import type { SignInProvider } from "@/contract";
import { getPrisma, loadSecretKey, resolveDatabaseConfig } from "@/lib/db";
import { ssoProviders } from "./sso-providers";

/** The providers the sign-in page offers: their ids and button names, nothing else. */
export async function signInProviders(): Promise<SignInProvider[]> {
  const providers = await ssoProviders(
    getPrisma(),
    () => loadSecretKey({ env: process.env, dataDir: resolveDatabaseConfig().dataDir }),
    process.env,
  ).all();
  return providers.map(({ providerId, name }) => ({ providerId, name }));
}
