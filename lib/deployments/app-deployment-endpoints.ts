import "server-only";
import { auditRequestsTo } from "@/lib/audit";
import { getPrisma, getRepositories } from "@/lib/db";
import { deploymentEndpoints } from "./deployment-endpoints";
import { createDeploymentService } from "./deployment-service";

/** The deployment endpoints over the app's database. */
export const appDeploymentEndpoints = deploymentEndpoints(
  () => createDeploymentService(getRepositories()),
  auditRequestsTo(getPrisma),
);
