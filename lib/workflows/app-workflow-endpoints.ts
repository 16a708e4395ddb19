import "server-only";
import { auditRequestsTo } from "@/lib/audit";
import { getPrisma } from "@/lib/db";
import { workflowService } from "./service";
import { workflowEndpoints } from "./workflow-endpoints";

/** The workflow endpoints over the app's database. */
export const appWorkflowEndpoints = workflowEndpoints(workflowService, auditRequestsTo(getPrisma));
