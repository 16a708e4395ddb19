import "server-only";
import { auditRequestsTo } from "@/lib/audit";
import { getPrisma, loadSecretKey, resolveDatabaseConfig, type PrismaClient } from "@/lib/db";
import { getRuntime } from "@/lib/runtime/runtime";
import { webhookEndpoints } from "./webhook-endpoints";
import type { WebhookReceiverDependencies } from "./webhook-receiver";
import { WebhookDeliveryRepository } from "./webhook-delivery-repository";
import { WebhookRepository } from "./webhook-repository";
import { SeenSignatures } from "./seen-signatures";
import { webhookToleranceFromEnvironment } from "./webhook-signature";

const stores = new WeakMap<
  PrismaClient,
  Pick<WebhookReceiverDependencies, "webhooks" | "deliveries"> & { seen: SeenSignatures }
>();

/** The hooks' repositories over the app's database, their secrets sealed with the key of every stored secret (read on first use). */
function webhookStores(prisma: PrismaClient) {
  let found = stores.get(prisma);
  if (!found) {
    const secretKey = () => loadSecretKey({ env: process.env, dataDir: resolveDatabaseConfig().dataDir });
    found = {
      webhooks: new WebhookRepository(prisma, secretKey),
      deliveries: new WebhookDeliveryRepository(prisma),
      seen: new SeenSignatures(prisma),
    };
    stores.set(prisma, found);
  }
  return found;
}

/** The webhook endpoints over the app's database and runtime. */
export const appWebhookEndpoints = webhookEndpoints(() => {
  const runtime = getRuntime();
  const { seen, ...stores } = webhookStores(getPrisma());
  return {
    ...stores,
    runs: runtime.runs,
    repositories: runtime.repositories,
    signatures: { seen, toleranceS: webhookToleranceFromEnvironment(), now: Date.now },
  };
}, auditRequestsTo(getPrisma));
