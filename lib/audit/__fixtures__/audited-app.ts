import { randomBytes } from "node:crypto";
import type { Member } from "@/lib/auth";
import { createApiKey } from "@/lib/auth";
import { createAuth, type TrellisAuth } from "@/lib/auth/auth";
import { peerAddressHeader } from "@/lib/auth/peer-address";
import { apiKeyEndpoints } from "@/lib/api-keys/api-key-endpoints";
import { budgetEndpoints } from "@/lib/budgets/budget-endpoints";
import { createBudgetService } from "@/lib/budgets/budget-service";
import { chatSettingsEndpoints } from "@/lib/chat/chat-endpoints";
import { ChatRepository } from "@/lib/chat/chat-repository";
import { createChatSettings } from "@/lib/chat/chat-settings";
import { deploymentEndpoints } from "@/lib/deployments/deployment-endpoints";
import { createDeploymentService } from "@/lib/deployments/deployment-service";
import { testMember } from "@/lib/http/test-members";
import { mcpPublicationEndpoints } from "@/lib/mcp/mcp-endpoints";
import { createMcpPublications } from "@/lib/mcp/mcp-publication";
import { McpToolRepository } from "@/lib/mcp/mcp-tool-repository";
import { priceEndpoints } from "@/lib/prices/price-endpoints";
import { startRunTestKit, type RunTestKit } from "@/lib/runs/__fixtures__/run-test-kit";
import { scheduleEndpoints } from "@/lib/schedules/schedule-endpoints";
import { ScheduleRepository } from "@/lib/schedules/schedule-repository";
import { createScheduleService } from "@/lib/schedules/schedule-service";
import { secretEndpoints } from "@/lib/secrets/secret-endpoints";
import { ssoEndpoints } from "@/lib/sso/sso-endpoints";
import { ssoProviders } from "@/lib/sso/sso-providers";
import { webhookEndpoints } from "@/lib/webhooks/webhook-endpoints";
import { WebhookDeliveryRepository } from "@/lib/webhooks/webhook-delivery-repository";
import { WebhookRepository } from "@/lib/webhooks/webhook-repository";
import { SeenSignatures } from "@/lib/webhooks/seen-signatures";
import { DEFAULT_WEBHOOK_TOLERANCE_S } from "@/lib/webhooks/webhook-signature";
import { importEndpoint } from "@/lib/workflows/import/import-endpoint";
import { createWorkflowService } from "@/lib/workflows/service";
import { workflowEndpoints } from "@/lib/workflows/workflow-endpoints";
import { invitationEndpoints } from "@/lib/workspaces/invitation-endpoints";
import { memberSessionEndpoints } from "@/lib/workspaces/member-session-endpoints";
import { memberSessions } from "@/lib/workspaces/member-sessions";
import { workspaceEndpoints } from "@/lib/workspaces/workspace-endpoints";
import { auditRequestsTo } from "../audit-by";
import { auditEndpoints } from "../audit-endpoints";
import { createAuditRepository } from "../audit-repository";

/**
 * Every endpoint that records an audit entry, over one test database and runtime, as the app
 * wires them (lib/<area>/app-*.ts), with an owner signed up through better-auth, the owner's API
 * key, and requests stamped with a client address.
 */

export const CLIENT_ADDRESS = "203.0.113.7";
export const OWNER = { name: "Ada Owner", email: "ada@example.com", password: "correct horse battery staple" };

export interface AuditedApp {
  kit: RunTestKit;
  auth: TrellisAuth;
  workspaceId: string;
  owner: Member;
  /** The owner acting through an API key named "CI deploy". */
  ownerKey: Member;
  ownerKeyId: string;
  endpoints: ReturnType<typeof audited>;
  /** A request as a browser on CLIENT_ADDRESS sends it (JSON body when given). */
  request(method: string, path: string, body?: unknown): Request;
  close(): Promise<void>;
}

function audited(kit: RunTestKit, auth: TrellisAuth) {
  const { prisma, repositories, secretKey } = kit.database;
  const audit = auditRequestsTo(() => prisma);
  const chats = new ChatRepository(prisma);
  return {
    workflows: workflowEndpoints(() => createWorkflowService(repositories), audit),
    importFile: importEndpoint(
      () => createWorkflowService(repositories),
      () => new Set(),
      audit,
    ),
    deployments: deploymentEndpoints(() => createDeploymentService(repositories), audit),
    webhooks: webhookEndpoints(
      () => ({
        webhooks: new WebhookRepository(prisma, secretKey),
        deliveries: new WebhookDeliveryRepository(prisma),
        runs: kit.runtime.runs,
        repositories,
        signatures: { seen: new SeenSignatures(prisma), toleranceS: DEFAULT_WEBHOOK_TOLERANCE_S, now: Date.now },
      }),
      audit,
    ),
    schedules: scheduleEndpoints(() => createScheduleService(new ScheduleRepository(prisma)), audit),
    chat: chatSettingsEndpoints(() => createChatSettings(chats, repositories), audit),
    mcp: mcpPublicationEndpoints(() => createMcpPublications(new McpToolRepository(prisma), repositories), audit),
    secrets: secretEndpoints(() => repositories.secrets, audit),
    apiKeys: apiKeyEndpoints(() => prisma, audit),
    budgets: budgetEndpoints(() => createBudgetService(prisma, repositories.budgets), audit),
    prices: priceEndpoints(
      () => repositories.priceOverrides,
      async () => () => undefined,
      audit,
    ),
    members: workspaceEndpoints(() => ({ workspaces: repositories.workspaces }), audit),
    invitations: invitationEndpoints(() => ({
      workspaces: repositories.workspaces,
      prisma,
      session: async () => null,
      createUser: (user) => auth.createUser(user),
    })),
    sessions: memberSessionEndpoints(() => memberSessions(prisma), audit),
    sso: ssoEndpoints(() => ssoProviders(prisma, () => secretKey, {}), audit),
    audit: auditEndpoints(() => createAuditRepository(prisma)),
  };
}

export async function startAuditedApp(): Promise<AuditedApp> {
  const kit = await startRunTestKit();
  const auth = createAuth({ prisma: kit.database.prisma, secret: randomBytes(32).toString("hex") });
  const user = await auth.createUser(OWNER);
  const { workspaceId } = await kit.database.prisma.workspaceMember.findFirstOrThrow({
    where: { userId: user.userId },
  });
  const owner = testMember(workspaceId, "owner", { userId: user.userId, email: user.email, name: user.name });
  const key = await createApiKey(kit.database.prisma, { userId: user.userId, workspaceId }, { name: "CI deploy" });
  const ownerKey: Member = { ...owner, via: "api-key", apiKeyId: key.id, keyWorkspaceId: workspaceId };
  return {
    kit,
    auth,
    workspaceId,
    owner,
    ownerKey,
    ownerKeyId: key.id,
    endpoints: audited(kit, auth),
    request(method, path, body) {
      const headers: Record<string, string> = { [peerAddressHeader()]: CLIENT_ADDRESS, host: "127.0.0.1:3000" };
      if (body !== undefined) headers["content-type"] = "application/json";
      const text = body === undefined ? undefined : JSON.stringify(body);
      if (text !== undefined) headers["content-length"] = String(Buffer.byteLength(text));
      return new Request(`http://127.0.0.1:3000${path}`, {
        method,
        headers,
        ...(text === undefined ? {} : { body: text }),
      });
    },
    close: () => kit.close(),
  };
}
