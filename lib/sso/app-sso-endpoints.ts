import "server-only";
import { auditRequestsTo } from "@/lib/audit";
import { getPrisma, loadSecretKey, resolveDatabaseConfig } from "@/lib/db";
import { ssoEndpoints } from "./sso-endpoints";
import { ssoProviders } from "./sso-providers";

/** The single sign-on settings over the app's database, the client secrets sealed with the key of every stored secret. */
export const appSsoEndpoints = ssoEndpoints(
  () =>
    ssoProviders(
      getPrisma(),
      () => loadSecretKey({ env: process.env, dataDir: resolveDatabaseConfig().dataDir }),
      process.env,
    ),
  auditRequestsTo(getPrisma),
);
