import "server-only";
import type { OperationId } from "@/contract/openapi";
import { appApiKeyEndpoints } from "@/lib/api-keys/app-api-key-endpoints";
import { appAuditEndpoints } from "@/lib/audit";
import { appBudgetEndpoints } from "@/lib/budgets/app-budget-endpoints";
import { appChatEndpoints, appChatSettingsEndpoints } from "@/lib/chat/app-chat-endpoints";
import { appCopilotEndpoints } from "@/lib/copilot/app-copilot-endpoints";
import { appDatasetEndpoints } from "@/lib/datasets";
import { appDeploymentEndpoints } from "@/lib/deployments/app-deployment-endpoints";
import { appEvaluationEndpoints } from "@/lib/evaluations";
import { appEstimateEndpoints } from "@/lib/estimates/app-estimate-endpoints";
import type { AnyEndpoint } from "@/lib/http/operation-table";
import { appKnowledgeEndpoints } from "@/lib/knowledge";
import { appMcpPublicationEndpoints, appMcpServerEndpoints } from "@/lib/mcp/app-mcp-endpoints";
import { appPriceEndpoints } from "@/lib/prices/app-price-endpoints";
import { appProviderEndpoints } from "@/lib/providers/app-provider-endpoints";
import { appApprovalEndpoints } from "@/lib/runs/app-approval-endpoints";
import { appAskEndpoints } from "@/lib/runs/app-ask-endpoints";
import { appRunEndpoints } from "@/lib/runs/app-run-endpoints";
import { appScheduleEndpoints } from "@/lib/schedules";
import { appSecretEndpoints } from "@/lib/secrets/app-secret-endpoints";
import { appSsoEndpoints } from "@/lib/sso";
import { appSystemEndpoints } from "@/lib/system/app-system-endpoints";
import { appOpenApiEndpoints } from "@/lib/system/openapi-document";
import { appUsageEndpoints } from "@/lib/usage/app-usage-endpoints";
import { appWebhookEndpoints } from "@/lib/webhooks/app-webhook-endpoints";
import { appWorkflowEndpoints } from "@/lib/workflows/app-workflow-endpoints";
import { appImportEndpoints } from "@/lib/workflows/import/app-import-endpoints";
import {
  appInvitationEndpoints,
  appMemberSessionEndpoints,
  appWorkspaceEndpoints,
} from "@/lib/workspaces/app-workspace-endpoints";

/** Each area's endpoints over the app's runtime: a new endpoint in an area's factory is served with no change here. */
const AREAS = [
  appWorkflowEndpoints,
  appImportEndpoints,
  appEstimateEndpoints,
  appCopilotEndpoints,
  appRunEndpoints,
  appApprovalEndpoints,
  appAskEndpoints,
  appDeploymentEndpoints,
  appScheduleEndpoints,
  appDatasetEndpoints,
  appEvaluationEndpoints,
  appWebhookEndpoints,
  appChatSettingsEndpoints,
  appChatEndpoints,
  appMcpPublicationEndpoints,
  appMcpServerEndpoints,
  appKnowledgeEndpoints,
  appUsageEndpoints,
  appBudgetEndpoints,
  appPriceEndpoints,
  appProviderEndpoints,
  appSecretEndpoints,
  appApiKeyEndpoints,
  appWorkspaceEndpoints,
  appInvitationEndpoints,
  appMemberSessionEndpoints,
  appSsoEndpoints,
  appAuditEndpoints,
  appSystemEndpoints,
  appOpenApiEndpoints,
] as const;

/** The operation ids an area's endpoints are bound to (distributed over the areas, whose keys differ). */
type BoundIn<Area> = Area extends unknown
  ? { [Key in keyof Area]: Area[Key] extends { operation: { operationId: infer Id } } ? Id : never }[keyof Area]
  : never;
type BoundOperationId = BoundIn<(typeof AREAS)[number]>;

/**
 * A declared operation with no handler fails to compile here, naming it (the catalog and the
 * handlers are held to each other as block definitions and handlers are); two handlers for one
 * operation fail when the dispatcher's table is built.
 */
type Nothing<Left extends never> = Left;
export type EveryOperationHasAHandler = Nothing<Exclude<OperationId, BoundOperationId>>;

/** Every endpoint the app serves, one per declared operation. */
export const APP_ENDPOINTS: readonly AnyEndpoint[] = AREAS.flatMap((area) => Object.values(area) as AnyEndpoint[]);
