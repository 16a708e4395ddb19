import "server-only";
import { auditRequestsTo } from "@/lib/audit";
import { processReadCache } from "@/lib/cache";
import { getPrisma, getRepositories } from "@/lib/db";
import { appDeployGate } from "@/lib/evaluations";
import { deploymentEndpoints } from "./deployment-endpoints";
import { createDeploymentService } from "./deployment-service";

/** The deployment endpoints over the app's database, with the evaluation gate over the app's runtime. */
export const appDeploymentEndpoints = deploymentEndpoints(
  () => createDeploymentService(getRepositories(), processReadCache(), appDeployGate(getPrisma())),
  auditRequestsTo(getPrisma),
);
