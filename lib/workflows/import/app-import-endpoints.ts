import "server-only";
import { auditRequestsTo } from "@/lib/audit";
import { getPrisma } from "@/lib/db";
import { appMcpServerNames, workflowService } from "../service";
import { importEndpoint } from "./import-endpoint";

/** The import endpoint over the app's database and its configured MCP servers. */
export const appImportEndpoints = {
  importFile: importEndpoint(workflowService, appMcpServerNames, auditRequestsTo(getPrisma)),
};
