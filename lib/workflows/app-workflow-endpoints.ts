import "server-only";
import { workflowService } from "./service";
import { workflowEndpoints } from "./workflow-endpoints";

/** The workflow endpoints over the app's database. */
export const appWorkflowEndpoints = workflowEndpoints(workflowService);
