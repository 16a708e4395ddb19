import { z } from "zod";
import { apiErrorFrom, operationCaller, type ApiClientOptions } from "./api-call";
import type { ChatSettingsRequest } from "./chat";
import type { AskAnswerRequest } from "./asks";
import type { CreateApiKeyRequest } from "./api-keys";
import type { CreateDeploymentRequest, RunTriggerKind } from "./deployments";
import type { SessionUser, SignInRequest, SignUpRequest } from "./auth";
import type { EstimateRequest } from "./estimates";
import type { CopilotRequest } from "./copilot";
import type { CreateKnowledgeBaseRequest, SearchRequestBody } from "./knowledge";
import type { McpPublicationRequest } from "./mcp-publication";
import type { PutPriceOverrideRequest } from "./prices";
import { PAGE_LIMIT_MAX, type PageRequest } from "./pagination";
import type { ApprovalDecision, RunStatus, StartRunRequest } from "./runs";
import type { CreateScheduleRequest, SchedulePreviewRequest } from "./schedules";
import type { UsageQueryInput } from "./usage";
import type { AuditExportFormat, AuditFilterInput } from "./audit";
import type { SsoSettingsRequest } from "./sso";
import type { PutBudgetsRequest } from "./budgets";
import type { CreateWebhookRequest } from "./webhooks";
import type {
  AcceptInvitationRequest,
  ChangeRoleRequest,
  InviteMemberRequest,
  WorkspaceMembers,
  WorkspaceRequest,
} from "./workspaces";
import type { WorkflowDocumentInput } from "./workflow-document";
import type { ImportRequest } from "./workflow-import";

export { ApiError, apiErrorFrom, type AnswerOf, type ApiClientOptions, type CallInput } from "./api-call";

/** The query of a page request and any filters beside it (`?status=...&limit=...&cursor=...`). */
function pageQuery(page: PageRequest = {}, filters: Record<string, string> = {}): Record<string, string> {
  return {
    ...filters,
    ...(page.limit !== undefined ? { limit: String(page.limit) } : {}),
    ...(page.cursor ? { cursor: page.cursor } : {}),
  };
}

/** Every page of a list, each as large as the server allows: what the list methods answered before lists were paged. */
async function everyPage<P extends { nextCursor: string | null }>(
  fetchPage: (page: PageRequest) => Promise<P>,
): Promise<P[]> {
  const pages: P[] = [];
  let cursor: string | null = null;
  do {
    const page = await fetchPage({ limit: PAGE_LIMIT_MAX, cursor });
    pages.push(page);
    cursor = page.nextCursor;
  } while (cursor);
  return pages;
}

const everyItem = async <
  Key extends string,
  P extends { nextCursor: string | null } & { [K in Key]: readonly unknown[] },
>(
  key: Key,
  fetchPage: (page: PageRequest) => Promise<P>,
): Promise<P[Key][number][]> => (await everyPage(fetchPage)).flatMap((page) => [...page[key]] as P[Key][number][]);

/** GET /api/workflows/:id/runs's filter beside the page. */
export interface RunPageRequest extends PageRequest {
  status?: readonly RunStatus[];
  trigger?: readonly RunTriggerKind[];
  /** A deployment's id, or `draft`. */
  deployment?: string;
}

/** GET /api/runs's filters: a workflow's list's, and which workflow (its id) when only one's runs are wanted. */
export interface WorkspaceRunPageRequest extends Omit<RunPageRequest, "deployment"> {
  workflow?: string;
}

/** The filters of a run page request as query parameters. */
function runFilters(page: RunPageRequest): Record<string, string> {
  return {
    ...(page.status?.length ? { status: page.status.join(",") } : {}),
    ...(page.trigger?.length ? { trigger: page.trigger.join(",") } : {}),
    ...(page.deployment ? { deployment: page.deployment } : {}),
  };
}

/** A user as better-auth's routes answer it (they are its own, so not in the operation catalog). */
const authUserSchema = z.object({ id: z.string(), email: z.string(), name: z.string() });
const authAnswerSchema = z.object({ user: authUserSchema });

/**
 * The one typed client of the REST API: the browser uses it, and so can scripts and tests. Every
 * method calls a declared operation (contract/openapi) by its id, which gives the method and path
 * and the schema its answer is parsed with; `call` reaches any operation the same way.
 */
export function createApiClient(options: ApiClientOptions = {}) {
  const { call, url } = operationCaller(options);
  /** better-auth's own routes: the session travels in an HTTP-only cookie (same origin). */
  async function auth<Schema extends z.ZodType>(
    path: string,
    schema: Schema,
    init: RequestInit,
  ): Promise<z.output<Schema>> {
    const fetcher = options.fetch ?? globalThis.fetch;
    const response = await fetcher(`${options.baseUrl ?? ""}${path}`, {
      ...init,
      headers: { "content-type": "application/json", ...options.headers, ...(init.headers ?? {}) },
    });
    const text = await response.text();
    if (!response.ok) throw apiErrorFrom(response.status, text);
    return schema.parse(text ? JSON.parse(text) : null);
  }
  const authPost = <Schema extends z.ZodType>(path: string, schema: Schema, body: unknown) =>
    auth(path, schema, { method: "POST", body: JSON.stringify(body) });

  const workflowPage = (page?: PageRequest) => call("listWorkflows", { query: pageQuery(page) });
  const runPage = (workflowId: string, page: RunPageRequest = {}) =>
    call("listRuns", { params: { id: workflowId }, query: pageQuery(page, runFilters(page)) });
  const workspaceRunPage = ({ workflow, ...page }: WorkspaceRunPageRequest = {}) =>
    call("listWorkspaceRuns", { query: pageQuery(page, { ...(workflow ? { workflow } : {}), ...runFilters(page) }) });
  const deploymentPage = (workflowId: string, page?: PageRequest) =>
    call("listDeployments", { params: { id: workflowId }, query: pageQuery(page) });
  const basePage = (page?: PageRequest) => call("listKnowledgeBases", { query: pageQuery(page) });
  const documentPage = (id: string, page?: PageRequest) =>
    call("listDocuments", { params: { id }, query: pageQuery(page) });
  const pricePage = (page?: PageRequest) => call("listPriceOverrides", { query: pageQuery(page) });
  const secretPage = (page?: PageRequest) => call("listSecrets", { query: pageQuery(page) });
  const apiKeyPage = (page?: PageRequest) => call("listApiKeys", { query: pageQuery(page) });
  const workspacePage = (page?: PageRequest) => call("listWorkspaces", { query: pageQuery(page) });
  const memberPage = (workspaceId: string, page?: PageRequest) =>
    call("listMembers", { params: { workspaceId }, query: pageQuery(page) });
  const schedulePage = (workflowId: string, page?: PageRequest) =>
    call("listSchedules", { params: { id: workflowId }, query: pageQuery(page) });
  const webhookPage = (workflowId: string, page?: PageRequest) =>
    call("listWebhooks", { params: { id: workflowId }, query: pageQuery(page) });
  const conversationPage = (chatId: string, page?: PageRequest) =>
    call("listChatConversations", { params: { chatId }, query: pageQuery(page) });
  const chatMessagePage = (chatId: string, conversationId: string, page?: PageRequest) =>
    call("listChatMessages", { params: { chatId, conversationId }, query: pageQuery(page) });

  // Each list has `page` (one page, with the cursor of the next) and `list` (every item, page after page).
  return {
    /** Any declared operation by its id, its answer parsed with its schema. */
    call,
    workflows: {
      list: () => everyItem("workflows", workflowPage),
      page: workflowPage,
      get: (id: string) => call("getWorkflow", { params: { id } }),
      create: (document: WorkflowDocumentInput) => call("createWorkflow", { body: document }),
      /** A flow file of another tool (or a Trellis export) as a new workflow, with the report of what mapped. */
      import: (request: ImportRequest) => call("importWorkflow", { body: request }),
      update: (id: string, document: WorkflowDocumentInput & { version: number }) =>
        call("updateWorkflow", { params: { id }, body: document }),
      remove: (id: string) => call("deleteWorkflow", { params: { id } }),
      /** What a run with this input would cost, before running it (no provider is called). */
      estimate: (id: string, request: EstimateRequest = {}) => call("estimateRun", { params: { id }, body: request }),
      /** A copilot proposal for the draft at `version`; nothing is stored but what the request spent. */
      copilot: (id: string, request: CopilotRequest) => call("askCopilot", { params: { id }, body: request }),
    },
    /** Deployments: frozen copies a workflow's API, hooks, schedules and chat run (docs/CONTRACT.md section 9). */
    deployments: {
      list: (workflowId: string) => everyItem("deployments", (page) => deploymentPage(workflowId, page)),
      page: deploymentPage,
      get: (workflowId: string, id: string) => call("getDeployment", { params: { id: workflowId, deploymentId: id } }),
      create: (workflowId: string, request: CreateDeploymentRequest = {}) =>
        call("createDeployment", { params: { id: workflowId }, body: request }),
      activate: (workflowId: string, id: string) =>
        call("activateDeployment", { params: { id: workflowId, deploymentId: id } }),
      /** What changed from one side to the other: a deployment's id or `draft`. */
      diff: (workflowId: string, from: string, to: string) =>
        call("diffDeployments", { params: { id: workflowId }, query: { from, to } }),
      /** Runs the active deployment in the background; 409 `not_deployed` before the first deploy. */
      execute: (workflowId: string, request: StartRunRequest = {}) =>
        call("executeWorkflow", { params: { id: workflowId }, body: { ...request, wait: false }, status: 202 }),
    },
    runs: {
      /** `budget`: the cap that applies when the run has one (a request's cap above the workflow's is not it). */
      start: (workflowId: string, request: StartRunRequest = {}) =>
        call("startRun", { params: { id: workflowId }, body: { ...request, wait: false }, status: 202 }),
      /** The newest runs (one page, as this list always answered: a workflow's runs grow without bound); `page` goes further. */
      list: (workflowId: string, statuses: readonly RunStatus[] = []) =>
        runPage(workflowId, { status: statuses }).then((body) => body.runs),
      page: runPage,
      /** A page of every run in the workspace, across its workflows, newest first. */
      workspacePage: workspaceRunPage,
      get: (runId: string) => call("getRun", { params: { id: runId } }),
      /** The workflow document the run ran and its version, to show the run as it was. */
      document: (runId: string) => call("getRunDocument", { params: { id: runId } }),
      cancel: (runId: string) => call("cancelRun", { params: { id: runId } }),
      /** Runs the current draft again from `blockId`, reusing the finished run's results before it. */
      rerun: (runId: string, blockId: string) => call("rerunRun", { params: { id: runId }, body: { blockId } }),
      /** Runs the current draft again with every model and tool call answered from the finished run's recordings: nothing sent, $0. */
      replay: (runId: string) => call("replayRun", { params: { id: runId }, body: {}, status: 202 }),
      /** Two runs of one workflow compared block by block, from `runId` to `otherId`. */
      diff: (runId: string, otherId: string) => call("diffRuns", { params: { id: runId, otherId } }),
      decide: (runId: string, toolCallId: string, decision: ApprovalDecision) =>
        call("decideRunApproval", { params: { id: runId, toolCallId }, body: decision }),
      /** The asks waiting for an answer (docs/CONTRACT.md section 10). */
      asks: (runId: string) => call("listRunAsks", { params: { id: runId } }),
      answer: (runId: string, spanId: string, answer: AskAnswerRequest) =>
        call("answerRunAsk", { params: { id: runId, spanId }, body: answer }),
      eventsUrl: (runId: string) => url("followRunEvents", { id: runId }),
    },
    /** A workflow's webhooks (docs/CONTRACT.md section 9): the secret goes in once and never comes back. */
    webhooks: {
      list: (workflowId: string) => everyItem("webhooks", (page) => webhookPage(workflowId, page)),
      page: webhookPage,
      create: (workflowId: string, request: CreateWebhookRequest = {}) =>
        call("createWebhook", { params: { id: workflowId }, body: request }),
      remove: (id: string) => call("deleteWebhook", { params: { id } }),
      /** The hook's last 20 deliveries, newest first. */
      deliveries: (id: string) => call("listWebhookDeliveries", { params: { id } }).then((body) => body.deliveries),
    },
    knowledge: {
      listBases: () => everyItem("knowledgeBases", basePage),
      pageBases: basePage,
      createBase: (request: CreateKnowledgeBaseRequest) => call("createKnowledgeBase", { body: request }),
      deleteBase: (id: string) => call("deleteKnowledgeBase", { params: { id } }),
      listDocuments: (id: string) => everyItem("documents", (page) => documentPage(id, page)),
      pageDocuments: documentPage,
      deleteDocument: (id: string, documentId: string) => call("deleteDocument", { params: { id, documentId } }),
      pageChunks: (id: string, documentId: string, page?: PageRequest) =>
        call("listChunks", { params: { id, documentId }, query: pageQuery(page) }),
      search: (id: string, request: SearchRequestBody) =>
        call("searchKnowledgeBase", { params: { id }, body: request }),
      documentsUrl: (id: string) => url("uploadDocuments", { id }),
    },
    models: {
      list: () => call("listModels", {}).then((body) => body.models),
      /** The models priced for the workspace, with the price catalog's version and date. */
      get: () => call("listModels", {}),
    },
    /** Model providers: where each one's key comes from; a key is set as the workspace secret named `keyVariable`. */
    providers: {
      list: () => call("listProviders", {}).then((body) => body.providers),
      /** One free call with the key a run would use: whether the provider answered and accepted it. */
      test: (provider: string) => call("testProviderConnection", { params: { provider } }),
    },
    /** The workspace's own model prices (docs/CONTRACT.md section 12): admins and owners change them. */
    prices: {
      list: () => everyItem("overrides", pricePage),
      page: pricePage,
      /** Creates the override of `model` (an id or `provider/*`) or replaces it. */
      put: (model: string, prices: PutPriceOverrideRequest) =>
        call("putPriceOverride", { params: { model }, body: prices }),
      remove: (model: string) => call("deletePriceOverride", { params: { model } }),
    },
    /** What an agent may use as tools: the tool types and MCP servers, and one server's tools asked of it now. */
    tools: {
      catalog: () => call("listTools", {}),
      mcpServerTools: (server: string) => call("listMcpServerTools", { params: { server } }),
    },
    /** Stored secrets: names and dates out, a value only ever sent in (docs/CONTRACT.md section 8). */
    secrets: {
      list: () => everyItem("secrets", secretPage),
      page: secretPage,
      /** Creates the secret or replaces its value. */
      put: (name: string, value: string) => call("putSecret", { params: { name }, body: { value } }),
      remove: (name: string) => call("deleteSecret", { params: { name } }),
    },
    /** The caller's API keys: the key itself only in the answer of create (docs/CONTRACT.md section 7). */
    apiKeys: {
      list: () => everyItem("apiKeys", apiKeyPage),
      page: apiKeyPage,
      create: (request: CreateApiKeyRequest) => call("createApiKey", { body: request }),
      /** Revokes the key at once: the next request with it gets 401. */
      revoke: (id: string) => call("revokeApiKey", { params: { id } }),
    },
    /** Runs, tokens and dollars over a period, grouped (docs/CONTRACT.md section 9). */
    usage: {
      get: (query: UsageQueryInput = {}) =>
        call("getUsage", {
          query: Object.fromEntries(
            Object.entries(query).filter((entry): entry is [string, string] => Boolean(entry[1])),
          ),
        }),
    },
    /** The workspace's OpenID Connect provider (docs/CONTRACT.md section 17): owners. */
    sso: {
      get: () => call("getSsoSettings", {}),
      /** Reads the provider's discovery document first: a wrong issuer is refused and nothing stored. */
      put: (request: SsoSettingsRequest) => call("putSsoSettings", { body: request }),
      remove: () => call("deleteSsoSettings", {}),
    },
    /** The workspace's audit log (docs/CONTRACT.md section 17): admins and owners. */
    audit: {
      /** A page of entries, newest first; filters left empty are left out. */
      page: (filter: AuditFilterInput = {}, page?: PageRequest) =>
        call("listAuditEntries", {
          query: pageQuery(
            page,
            Object.fromEntries(Object.entries(filter).filter((entry): entry is [string, string] => Boolean(entry[1]))),
          ),
        }),
      /** The export's URL (a download: CSV or JSON lines), for a link. */
      exportUrl: (filter: AuditFilterInput = {}, format: AuditExportFormat = "csv") =>
        `/api/audit/export?${new URLSearchParams({
          ...Object.fromEntries(Object.entries(filter).filter((entry): entry is [string, string] => Boolean(entry[1]))),
          format,
        })}`,
    },
    /** Monthly caps of the workspace and its API keys, with this month's spending (docs/CONTRACT.md section 12). */
    budgets: {
      get: () => call("getBudgets", {}),
      /** A number sets a cap, null removes it, a cap left out is kept. */
      put: (request: PutBudgetsRequest) => call("putBudgets", { body: request }),
    },
    /** The caller's workspaces, their members and invitations (docs/CONTRACT.md section 7). */
    workspaces: {
      list: () => everyItem("workspaces", workspacePage),
      page: workspacePage,
      create: (request: WorkspaceRequest) => call("createWorkspace", { body: request }),
      rename: (id: string, request: WorkspaceRequest) =>
        call("renameWorkspace", { params: { workspaceId: id }, body: request }),
      /** Every member and open invitation, page after page. */
      members: async (id: string): Promise<WorkspaceMembers> => {
        const pages = await everyPage((page) => memberPage(id, page));
        return {
          members: pages.flatMap((page) => page.members),
          invitations: pages.flatMap((page) => page.invitations),
        };
      },
      membersPage: memberPage,
      /** Invites by email: the answer holds the link to give the invitee, shown this once. */
      invite: (id: string, request: InviteMemberRequest) =>
        call("inviteMember", { params: { workspaceId: id }, body: request }),
      changeRole: (id: string, userId: string, request: ChangeRoleRequest) =>
        call("changeMemberRole", { params: { workspaceId: id, userId }, body: request }),
      removeMember: (id: string, userId: string) => call("removeMember", { params: { workspaceId: id, userId } }),
      revokeInvitation: (id: string, invitationId: string) =>
        call("revokeInvitation", { params: { workspaceId: id, invitationId } }),
      /** A member's signed-in sessions (admins). */
      sessions: (id: string, userId: string) => call("listMemberSessions", { params: { workspaceId: id, userId } }),
      /** Ends one of a member's sessions at once. */
      revokeSession: (id: string, userId: string, sessionId: string) =>
        call("revokeMemberSession", { params: { workspaceId: id, userId, sessionId } }),
      /** Ends every session of a member at once. */
      revokeSessions: (id: string, userId: string) =>
        call("revokeMemberSessions", { params: { workspaceId: id, userId } }),
    },
    /** A workflow's schedules: cron times that run its active deployment (docs/CONTRACT.md section 9). */
    schedules: {
      list: (workflowId: string) => everyItem("schedules", (page) => schedulePage(workflowId, page)),
      page: schedulePage,
      create: (workflowId: string, request: CreateScheduleRequest) =>
        call("createSchedule", { params: { id: workflowId }, body: request }),
      /** The next fire times of an expression in a zone, or an ApiError naming what is wrong with it; stores nothing. */
      preview: (request: SchedulePreviewRequest) => call("previewSchedule", { body: request }),
      setPaused: (id: string, paused: boolean) => call("updateSchedule", { params: { id }, body: { paused } }),
      remove: (id: string) => call("deleteSchedule", { params: { id } }),
    },
    /** A workflow published as a tool of the workspace's MCP server at /api/mcp (docs/CONTRACT.md section 9). */
    mcp: {
      publication: (workflowId: string) => call("getMcpPublication", { params: { id: workflowId } }),
      publish: (workflowId: string, request: McpPublicationRequest) =>
        call("publishMcpTool", { params: { id: workflowId }, body: request }),
    },
    /**
     * A workflow's public chat (docs/CONTRACT.md section 9): its settings for members, and the
     * visitor's side, which needs no credentials (a cookie says whose conversations are whose).
     */
    chat: {
      settings: (workflowId: string) => call("getChatSettings", { params: { id: workflowId } }),
      configure: (workflowId: string, request: ChatSettingsRequest) =>
        call("configureChat", { params: { id: workflowId }, body: request }),
      info: (chatId: string) => call("getPublicChat", { params: { chatId }, init: { cache: "no-store" } }),
      /** Gives the chat's password; 401 password_required when it is wrong. */
      unlock: (chatId: string, password: string) => call("unlockChat", { params: { chatId }, body: { password } }),
      conversations: (chatId: string) => everyItem("conversations", (page) => conversationPage(chatId, page)),
      messages: (chatId: string, conversationId: string) =>
        everyItem("messages", (page) => chatMessagePage(chatId, conversationId, page)),
      stop: (chatId: string, conversationId: string) => call("stopChatReply", { params: { chatId, conversationId } }),
      /** Answers the ask the conversation's reply waits on (from its stream's `ask.requested`). */
      answer: (chatId: string, conversationId: string, spanId: string, answer: AskAnswerRequest) =>
        call("answerChatAsk", { params: { chatId, conversationId, spanId }, body: answer }),
      /** POST `{ message, conversationId? }` here with Accept: text/event-stream: the reply's stream (ChatStreamEvent). */
      messagesUrl: (chatId: string) => url("sendChatMessage", { chatId }),
    },
    /** What `{{NAME}}` may read: stored secret names and the allowed environment variables that are set, never values. */
    envNames: () => call("listEnvNames", {}).then((body) => body.names),
    /** Better-auth's routes: the session travels in an HTTP-only cookie (same origin). */
    auth: {
      signIn: (request: SignInRequest) => authPost("/api/auth/sign-in/email", authAnswerSchema, request),
      /** Starts a sign-in with a workspace's OpenID provider: the provider's page to send the browser to. */
      signInWithProvider: (providerId: string, callbackURL: string) =>
        authPost("/api/auth/sign-in/social", z.object({ url: z.string() }), {
          provider: providerId,
          callbackURL,
          errorCallbackURL: "/sign-in",
        }),
      /** Creates the owner on first start; refused (403) once a user exists. */
      signUp: (request: SignUpRequest) => authPost("/api/auth/sign-up/email", authAnswerSchema, request),
      signOut: () => authPost("/api/auth/sign-out", z.object({ success: z.boolean() }), {}),
      /** An invitation as its page shows it (the token is the credential). */
      invitation: (token: string) => call("previewInvitation", { params: { token } }),
      /** Accepts an invitation: a new user sends a name and password, a signed-in invitee nothing. */
      acceptInvitation: (token: string, request: AcceptInvitationRequest = {}) =>
        call("acceptInvitation", { params: { token }, body: request }),
      /** The signed-in user, or null. */
      session: async (): Promise<SessionUser | null> => {
        const body = await auth("/api/auth/get-session", z.object({ user: authUserSchema.optional() }).nullable(), {
          cache: "no-store",
        });
        return body?.user ? { userId: body.user.id, email: body.user.email, name: body.user.name } : null;
      },
    },
  };
}

export type ApiClient = ReturnType<typeof createApiClient>;

/** The browser's client: same origin. */
export const api = createApiClient();
