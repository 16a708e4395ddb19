import { ASK_OPERATIONS } from "./catalog-asks";
import { BUDGET_OPERATIONS } from "./catalog-budgets";
import { CHAT_OPERATIONS } from "./catalog-chat";
import { DEPLOYMENT_OPERATIONS } from "./catalog-deployments";
import { ESTIMATE_OPERATIONS } from "./catalog-estimates";
import { IMPORT_OPERATIONS } from "./catalog-import";
import { KNOWLEDGE_OPERATIONS } from "./catalog-knowledge";
import { MCP_OPERATIONS } from "./catalog-mcp";
import { PRICE_OPERATIONS } from "./catalog-prices";
import { SCHEDULE_OPERATIONS } from "./catalog-schedules";
import { WEBHOOK_OPERATIONS } from "./catalog-webhooks";
import { SYSTEM_OPERATIONS } from "./catalog-system";
import { USAGE_OPERATIONS } from "./catalog-usage";
import { WORKFLOW_OPERATIONS } from "./catalog-workflows";
import { WORKSPACE_OPERATIONS } from "./catalog-workspaces";
import type { ApiOperation } from "./operation";

/** Every REST operation of app/api but better-auth's own under /api/auth (catalog.test.ts holds the two to each other). */
export const API_OPERATIONS: readonly ApiOperation[] = [
  ...WORKFLOW_OPERATIONS,
  ...IMPORT_OPERATIONS,
  ...ESTIMATE_OPERATIONS,
  ...ASK_OPERATIONS,
  ...DEPLOYMENT_OPERATIONS,
  ...SCHEDULE_OPERATIONS,
  ...WEBHOOK_OPERATIONS,
  ...CHAT_OPERATIONS,
  ...MCP_OPERATIONS,
  ...KNOWLEDGE_OPERATIONS,
  ...USAGE_OPERATIONS,
  ...BUDGET_OPERATIONS,
  ...PRICE_OPERATIONS,
  ...WORKSPACE_OPERATIONS,
  ...SYSTEM_OPERATIONS,
];
