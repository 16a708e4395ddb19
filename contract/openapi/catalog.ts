import { ASK_OPERATIONS } from "./catalog-asks";
import { AUDIT_OPERATIONS } from "./catalog-audit";
import { BUDGET_OPERATIONS } from "./catalog-budgets";
import { CHAT_OPERATIONS } from "./catalog-chat";
import { COPILOT_OPERATIONS } from "./catalog-copilot";
import { DEPLOYMENT_OPERATIONS } from "./catalog-deployments";
import { ESTIMATE_OPERATIONS } from "./catalog-estimates";
import { EVALUATION_OPERATIONS } from "./catalog-evaluations";
import { IMPORT_OPERATIONS } from "./catalog-import";
import { KNOWLEDGE_OPERATIONS } from "./catalog-knowledge";
import { MCP_OPERATIONS } from "./catalog-mcp";
import { PRICE_OPERATIONS } from "./catalog-prices";
import { PROVIDER_OPERATIONS } from "./catalog-providers";
import { SCHEDULE_OPERATIONS } from "./catalog-schedules";
import { SESSION_OPERATIONS } from "./catalog-sessions";
import { SSO_OPERATIONS } from "./catalog-sso";
import { WEBHOOK_OPERATIONS } from "./catalog-webhooks";
import { SYSTEM_OPERATIONS } from "./catalog-system";
import { USAGE_OPERATIONS } from "./catalog-usage";
import { WORKFLOW_OPERATIONS } from "./catalog-workflows";
import { WORKSPACE_OPERATIONS } from "./catalog-workspaces";
import type { ApiOperation } from "./operation";

/** The declarations as literal types, so an operation's id names its path, access and schemas at compile time. */
const DECLARED_OPERATIONS = [
  ...WORKFLOW_OPERATIONS,
  ...IMPORT_OPERATIONS,
  ...ESTIMATE_OPERATIONS,
  ...COPILOT_OPERATIONS,
  ...ASK_OPERATIONS,
  ...DEPLOYMENT_OPERATIONS,
  ...SCHEDULE_OPERATIONS,
  ...EVALUATION_OPERATIONS,
  ...WEBHOOK_OPERATIONS,
  ...CHAT_OPERATIONS,
  ...MCP_OPERATIONS,
  ...KNOWLEDGE_OPERATIONS,
  ...USAGE_OPERATIONS,
  ...BUDGET_OPERATIONS,
  ...PRICE_OPERATIONS,
  ...PROVIDER_OPERATIONS,
  ...WORKSPACE_OPERATIONS,
  ...SESSION_OPERATIONS,
  ...SSO_OPERATIONS,
  ...AUDIT_OPERATIONS,
  ...SYSTEM_OPERATIONS,
] as const satisfies readonly ApiOperation[];

/**
 * Every REST operation under /api but better-auth's own (/api/auth/*): the one declaration the
 * server dispatches by, the OpenAPI document describes and the API client calls.
 */
export const API_OPERATIONS: readonly ApiOperation[] = DECLARED_OPERATIONS;

export type DeclaredOperation = (typeof DECLARED_OPERATIONS)[number];
export type OperationId = DeclaredOperation["operationId"];
export type OperationById<Id extends OperationId> = Extract<DeclaredOperation, { operationId: Id }>;

const byId = new Map<string, ApiOperation>(API_OPERATIONS.map((operation) => [operation.operationId, operation]));

/** The declaration of an operation; throws for an id that is not one (only a typo in untyped code reaches that). */
export function operationById<Id extends OperationId>(id: Id): OperationById<Id> {
  const operation = byId.get(id);
  if (!operation) throw new Error(`No operation "${id}" is declared in contract/openapi.`);
  return operation as OperationById<Id>;
}
