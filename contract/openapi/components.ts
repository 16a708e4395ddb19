import { z } from "zod";
import { createApiKeyRequestSchema } from "../api-keys";
import { chatAccessRequestSchema, chatMessageRequestSchema, chatSettingsRequestSchema } from "../chat";
import { createDeploymentRequestSchema } from "../deployments";
import { createKnowledgeBaseRequestSchema, searchRequestSchema } from "../knowledge";
import { mcpPublicationRequestSchema } from "../mcp-publication";
import { approvalDecisionSchema, replayRequestSchema, rerunRequestSchema, startRunRequestSchema } from "../runs";
import { askAnswerRequestSchema } from "../asks";
import { createWebhookRequestSchema } from "../webhooks";
import { createScheduleRequestSchema, schedulePreviewRequestSchema, updateScheduleRequestSchema } from "../schedules";
import { putPriceOverrideRequestSchema } from "../prices";
import { putSecretRequestSchema } from "../secrets";
import { blockSchema, edgeSchema, workflowDocumentSchema } from "../workflow-document";
import { importRequestSchema } from "../workflow-import";
import { estimateRequestSchema } from "../estimates";
import {
  addDatasetCasesRequestSchema,
  addRunToDatasetRequestSchema,
  createDatasetRequestSchema,
  datasetCaseInputSchema,
  updateDatasetRequestSchema,
} from "../datasets";
import { startEvaluationRequestSchema, suiteRequestSchema } from "../evaluations";
import {
  acceptInvitationRequestSchema,
  changeRoleRequestSchema,
  inviteMemberRequestSchema,
  workspaceRequestSchema,
} from "../workspaces";
import { costSchema, errorBodySchema, errorInfoSchema, issueDetailSchema, tokenCountsSchema } from "./schemas-common";
import { putBudgetsRequestSchema } from "../budgets";
import * as asks from "./schemas-asks";
import * as audit from "./schemas-audit";
import * as budgets from "./schemas-budgets";
import * as chat from "./schemas-chat";
import * as deployments from "./schemas-deployments";
import * as copilot from "./schemas-copilot";
import * as estimates from "./schemas-estimates";
import * as evaluations from "./schemas-evaluations";
import * as imports from "./schemas-import";
import * as knowledge from "./schemas-knowledge";
import * as runDiff from "./schemas-run-diff";
import * as mcp from "./schemas-mcp";
import * as prices from "./schemas-prices";
import * as schedules from "./schemas-schedules";
import * as sessions from "./schemas-sessions";
import * as sso from "./schemas-sso";
import * as system from "./schemas-system";
import * as usage from "./schemas-usage";
import * as webhooks from "./schemas-webhooks";
import * as workflows from "./schemas-workflows";
import * as workspaces from "./schemas-workspaces";

/**
 * The named schemas of the document's `components.schemas`, by name. Request bodies are converted
 * as zod's input (defaults optional, transforms before), answers as its output (defaults filled
 * in), so the two sets are kept apart: a schema nested in both is named in one and written out in
 * the other. A schema shared by several operations, or nested in others, is named here; one that
 * a single operation declares for itself is named after it by the generator (`GetRunAnswer`).
 */

export const REQUEST_COMPONENTS: Record<string, z.ZodType> = {
  WorkflowDocument: workflowDocumentSchema,
  WorkflowBlock: blockSchema,
  WorkflowEdge: edgeSchema,
  WorkflowUpdate: workflows.workflowUpdateRequestSchema,
  ImportRequest: importRequestSchema,
  StartRunRequest: startRunRequestSchema,
  EstimateRequest: estimateRequestSchema,
  CopilotRequest: copilot.copilotRequestSchema,
  ApprovalDecision: approvalDecisionSchema,
  RerunRequest: rerunRequestSchema,
  ReplayRequest: replayRequestSchema,
  AskAnswerRequest: askAnswerRequestSchema,
  CreateDeploymentRequest: createDeploymentRequestSchema,
  CreateScheduleRequest: createScheduleRequestSchema,
  SchedulePreviewRequest: schedulePreviewRequestSchema,
  UpdateScheduleRequest: updateScheduleRequestSchema,
  CreateWebhookRequest: createWebhookRequestSchema,
  WebhookBody: webhooks.webhookBodySchema,
  ChatSettingsRequest: chatSettingsRequestSchema,
  ChatAccessRequest: chatAccessRequestSchema,
  ChatMessageRequest: chatMessageRequestSchema,
  McpPublicationRequest: mcpPublicationRequestSchema,
  McpMessage: mcp.mcpMessageSchema,
  CreateKnowledgeBaseRequest: createKnowledgeBaseRequestSchema,
  DocumentUploadForm: knowledge.documentUploadFormSchema,
  SearchRequest: searchRequestSchema,
  PutSecretRequest: putSecretRequestSchema,
  PutPriceOverrideRequest: putPriceOverrideRequestSchema,
  CreateApiKeyRequest: createApiKeyRequestSchema,
  WorkspaceRequest: workspaceRequestSchema,
  InviteMemberRequest: inviteMemberRequestSchema,
  ChangeRoleRequest: changeRoleRequestSchema,
  AcceptInvitationRequest: acceptInvitationRequestSchema,
  PutBudgetsRequest: putBudgetsRequestSchema,
  SsoSettingsRequest: sso.ssoSettingsRequestSchema,
  CreateDatasetRequest: createDatasetRequestSchema,
  UpdateDatasetRequest: updateDatasetRequestSchema,
  DatasetCaseInput: datasetCaseInputSchema,
  AddDatasetCasesRequest: addDatasetCasesRequestSchema,
  AddRunToDatasetRequest: addRunToDatasetRequestSchema,
  SuiteRequest: suiteRequestSchema,
  StartEvaluationRequest: startEvaluationRequestSchema,
};

export const ANSWER_COMPONENTS: Record<string, z.ZodType> = {
  ErrorBody: errorBodySchema,
  ErrorInfo: errorInfoSchema,
  IssueDetail: issueDetailSchema,
  TokenCounts: tokenCountsSchema,
  Cost: costSchema,
  StoredWorkflow: workflows.storedWorkflowSchema,
  SavedWorkflow: workflows.savedWorkflowSchema,
  WorkflowSummary: workflows.workflowSummarySchema,
  WorkflowPage: workflows.workflowPageSchema,
  ImportReport: imports.importReportSchema,
  ImportedWorkflow: imports.importedWorkflowSchema,
  RunSummary: workflows.runSummarySchema,
  RunPage: workflows.runPageSchema,
  WorkspaceRunSummary: workflows.workspaceRunSummarySchema,
  WorkspaceRunPage: workflows.workspaceRunPageSchema,
  Span: workflows.apiSpanSchema,
  Run: workflows.apiRunSchema,
  RunDocument: workflows.runDocumentSchema,
  RunStarted: workflows.runStartedSchema,
  RunCancelling: workflows.runCancellingSchema,
  RerunStarted: workflows.rerunStartedSchema,
  CostRange: estimates.costRangeSchema,
  BlockEstimate: estimates.blockEstimateSchema,
  WorkflowEstimate: estimates.workflowEstimateSchema,
  CopilotAnswer: copilot.copilotAnswerSchema,
  ReplayStarted: workflows.replayStartedSchema,
  RunDiff: runDiff.runDiffSchema,
  BlockRunDiff: runDiff.blockRunDiffSchema,
  PendingApproval: workflows.pendingApprovalSchema,
  RunApprovals: workflows.runApprovalsSchema,
  ApprovalDecided: workflows.approvalDecidedSchema,
  PendingAsk: asks.pendingAskSchema,
  RunAsks: asks.runAsksSchema,
  AskAnswered: asks.askAnsweredSchema,
  ChatAskAnswered: asks.chatAskAnsweredSchema,
  Deployment: deployments.deploymentInfoSchema,
  DeploymentPage: deployments.deploymentPageSchema,
  DeploymentWithDocument: deployments.deploymentWithDocumentSchema,
  DocumentDiff: deployments.documentDiffSchema,
  Schedule: schedules.scheduleSchema,
  ScheduleFire: schedules.scheduleFireSchema,
  SchedulePage: schedules.schedulePageSchema,
  SchedulePreview: schedules.schedulePreviewSchema,
  CreatedWebhook: webhooks.createdWebhookSchema,
  Webhook: webhooks.webhookSummarySchema,
  WebhookPage: webhooks.webhookPageSchema,
  WebhookDelivery: webhooks.webhookDeliverySchema,
  WebhookDeliveries: webhooks.webhookDeliveriesSchema,
  WebhookRunResult: webhooks.webhookRunResultSchema,
  ChatSettings: chat.chatSettingsSchema,
  NoChatSettings: chat.noChatSettingsSchema,
  PublicChatInfo: chat.publicChatInfoSchema,
  ChatConversation: chat.chatConversationSchema,
  ChatConversationPage: chat.chatConversationPageSchema,
  ChatMessage: chat.chatMessageSchema,
  ChatMessagePage: chat.chatMessagePageSchema,
  ChatStopped: chat.chatStoppedSchema,
  McpPublication: mcp.mcpPublicationSchema,
  KnowledgeBase: knowledge.knowledgeBaseRecordSchema,
  KnowledgeBaseSummary: knowledge.knowledgeBaseSummarySchema,
  KnowledgeBasePage: knowledge.knowledgeBasePageSchema,
  KnowledgeDocument: knowledge.knowledgeDocumentSchema,
  KnowledgeDocumentInBase: knowledge.knowledgeDocumentInBaseSchema,
  KnowledgeDocumentPage: knowledge.knowledgeDocumentPageSchema,
  UploadedDocument: knowledge.uploadedDocumentSchema,
  UploadAccepted: knowledge.uploadAcceptedSchema,
  Chunk: knowledge.chunkViewSchema,
  ChunkPage: knowledge.chunkPageSchema,
  SearchHit: knowledge.searchHitSchema,
  SearchAnswer: knowledge.searchAnswerSchema,
  UsageFigures: usage.usageFiguresWithRunsSchema,
  UsageRow: usage.usageRowSchema,
  UsageReport: usage.usageReportSchema,
  RunBudget: budgets.runBudgetSchema,
  Budgets: budgets.budgetsResponseSchema,
  Workspace: workspaces.workspaceSummarySchema,
  WorkspacePage: workspaces.workspacePageSchema,
  WorkspaceMember: workspaces.workspaceMemberSchema,
  WorkspaceInvitation: workspaces.workspaceInvitationSchema,
  CreatedInvitation: workspaces.createdInvitationSchema,
  WorkspaceMembersPage: workspaces.workspaceMembersPageSchema,
  InvitationPreview: workspaces.invitationPreviewSchema,
  InvitationAccepted: workspaces.invitationAcceptedSchema,
  SecretListEntry: workspaces.secretListEntrySchema,
  SecretPage: workspaces.secretPageSchema,
  ModelPrices: prices.modelPricesSchema,
  AppliedPrice: prices.appliedPriceSchema,
  PriceCatalog: prices.priceCatalogSchema,
  PriceOverride: prices.priceOverrideSchema,
  PriceOverridePage: prices.priceOverridePageSchema,
  ApiKey: workspaces.apiKeySummarySchema,
  ApiKeyPage: workspaces.apiKeyPageSchema,
  CreatedApiKey: workspaces.createdApiKeySchema,
  Health: system.healthSchema,
  HealthDetails: system.healthDetailsSchema,
  Readiness: system.readinessSchema,
  ModelList: system.modelListSchema,
  ToolCatalog: system.toolCatalogSchema,
  McpServerTools: system.mcpServerToolsSchema,
  EnvNames: system.envNamesSchema,
  OpenApiDocument: system.openApiDocumentSchema,
  AuditActor: audit.auditActorSchema,
  AuditObject: audit.auditObjectSchema,
  AuditEntry: audit.auditEntrySchema,
  AuditPage: audit.auditPageSchema,
  MemberSession: sessions.memberSessionSchema,
  MemberSessions: sessions.memberSessionsSchema,
  SessionsRevoked: sessions.sessionsRevokedSchema,
  SsoSettings: sso.ssoSettingsSchema,
  SsoSettingsAnswer: sso.ssoSettingsAnswerSchema,
  DatasetSummary: evaluations.datasetSummarySchema,
  Dataset: evaluations.datasetSchema,
  DatasetCase: evaluations.datasetCaseSchema,
  DatasetList: evaluations.datasetListSchema,
  Scorer: evaluations.scorerSchema,
  Score: evaluations.scoreSchema,
  Suite: evaluations.suiteSchema,
  SuiteList: evaluations.suiteListSchema,
  EvaluationSummary: evaluations.evaluationSummarySchema,
  EvaluationCase: evaluations.evaluationCaseSchema,
  EvaluationInfo: evaluations.evaluationInfoSchema,
  EvaluationList: evaluations.evaluationListSchema,
  Evaluation: evaluations.evaluationSchema,
  EvaluationStarted: evaluations.evaluationStartedSchema,
  ComparedCase: evaluations.comparedCaseSchema,
  EvaluationComparison: evaluations.evaluationComparisonSchema,
};

/** A registry of `components` for z.toJSONSchema, which turns each registered schema met inside another into a `$ref`. */
export function componentRegistry(components: Record<string, z.ZodType>) {
  const registry = z.registry<{ id: string }>();
  for (const [id, schema] of Object.entries(components)) {
    if (registry.has(schema)) throw new Error(`The schema named ${id} is already named ${registry.get(schema)?.id}`);
    registry.add(schema, { id });
  }
  return registry;
}
