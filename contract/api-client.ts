import type { ApiKeySummary, CreateApiKeyRequest, CreatedApiKey } from "./api-keys";
import type { ChatConversationSummary, ChatMessageView, ChatSettings, ChatSettingsRequest, NoChatSettings, PublicChatInfo } from "./chat";
import type { CreateDeploymentRequest, DeploymentInfo, DeploymentWithDocument, DocumentDiff, RunTriggerKind } from "./deployments";
import type { AskAnswerRequest, AskList } from "./asks";
import type { SessionUser, SignInRequest, SignUpRequest } from "./auth";
import type { ErrorBody, IssueDetail } from "./errors";
import type { EstimateRequest, WorkflowEstimate } from "./estimates";
import type { ChunkView, CreateKnowledgeBaseRequest, KnowledgeBaseSummary, KnowledgeDocument, SearchAnswer, SearchRequestBody } from "./knowledge";
import type { McpPublication, McpPublicationRequest } from "./mcp-publication";
import type { ModelList } from "./models";
import type { PriceOverride, PutPriceOverrideRequest } from "./prices";
import { PAGE_LIMIT_MAX, type ListPage, type PageRequest } from "./pagination";
import type { RunDiff } from "./run-diff";
import type { ApiRun, ApprovalDecision, ReplayStarted, RerunStarted, RunDocument, RunStatus, RunSummary, StartRunRequest, WorkspaceRunSummary } from "./runs";
import type { CreateScheduleRequest, SchedulePreview, SchedulePreviewRequest, ScheduleView } from "./schedules";
import type { SecretListEntry } from "./secrets";
import type { McpServerTools, ToolCatalog } from "./tools";
import type { UsageQueryInput, UsageReport } from "./usage";
import type { BudgetsResponse, PutBudgetsRequest, RunBudget } from "./budgets";
import type { CreatedWebhook, CreateWebhookRequest, WebhookDeliveryView, WebhookSummary } from "./webhooks";
import type {
  AcceptInvitationRequest,
  ChangeRoleRequest,
  CreatedInvitation,
  InvitationPreview,
  InviteMemberRequest,
  WorkspaceMember,
  WorkspaceMembers,
  WorkspaceMembersPage,
  WorkspaceRequest,
  WorkspaceSummary,
} from "./workspaces";
import type { WorkflowDocumentInput } from "./workflow-document";
import type { SavedWorkflow, StoredWorkflow, WorkflowSummary } from "./workflows";
import type { ImportedWorkflow, ImportRequest } from "./workflow-import";

/** An error answer of the API, with the server's code, message and details. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly details: IssueDetail[] = [],
    readonly body: unknown = undefined,
  ) {
    super(message);
    this.name = "ApiError";
  }
}

/** The flat `{ code, message }` body better-auth's routes under /api/auth answer with. */
interface FlatErrorBody {
  code?: unknown;
  message?: unknown;
}

/**
 * Reads an error answer's body: the contract's `{ error: {...} }`, the auth routes' flat
 * `{ code, message }`, or anything a proxy sent instead (then the status speaks).
 */
export function apiErrorFrom(status: number, text: string): ApiError {
  let body: (Partial<ErrorBody> & FlatErrorBody) | null = null;
  try {
    body = JSON.parse(text) as Partial<ErrorBody> & FlatErrorBody;
  } catch {
    // Not JSON: keep the status as the message.
  }
  const error = body?.error;
  if (error) return new ApiError(status, error.code ?? "http_error", error.message ?? `The server answered ${status}.`, error.details ?? [], body);
  const code = typeof body?.code === "string" ? body.code : "http_error";
  const message = typeof body?.message === "string" && body.message ? body.message : `The server answered ${status}.`;
  return new ApiError(status, code, message, [], body ?? undefined);
}

export interface ApiClientOptions {
  /** Prefix of every path; empty in the browser (same origin). */
  baseUrl?: string;
  fetch?: typeof globalThis.fetch;
  headers?: Record<string, string>;
}

const segment = encodeURIComponent;

/** The query of a page request and any filters beside it (`?status=...&limit=...&cursor=...`); empty when there is none. */
function pageQuery(page: PageRequest = {}, filters: Record<string, string> = {}): string {
  const query = new URLSearchParams(filters);
  if (page.limit !== undefined) query.set("limit", String(page.limit));
  if (page.cursor) query.set("cursor", page.cursor);
  const text = query.toString();
  return text ? `?${text}` : "";
}

/** Every page of a list, each as large as the server allows: what the list methods answered before lists were paged. */
async function everyPage<P extends { nextCursor: string | null }>(fetchPage: (page: PageRequest) => Promise<P>): Promise<P[]> {
  const pages: P[] = [];
  let cursor: string | null = null;
  do {
    const page = await fetchPage({ limit: PAGE_LIMIT_MAX, cursor });
    pages.push(page);
    cursor = page.nextCursor;
  } while (cursor);
  return pages;
}

const everyItem = async <Key extends string, Item>(key: Key, fetchPage: (page: PageRequest) => Promise<ListPage<Key, Item>>): Promise<Item[]> =>
  (await everyPage(fetchPage)).flatMap((page) => page[key] as Item[]);

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

/** A user as the auth routes answer it. */
interface AuthUser {
  id: string;
  email: string;
  name: string;
}

/** The one typed client of the REST API: the browser uses it, and so can scripts and tests. */
export function createApiClient(options: ApiClientOptions = {}) {
  const baseUrl = options.baseUrl ?? "";
  async function call<T>(path: string, init: RequestInit = {}): Promise<T> {
    const fetcher = options.fetch ?? globalThis.fetch;
    const response = await fetcher(`${baseUrl}${path}`, {
      ...init,
      headers: { "content-type": "application/json", ...options.headers, ...(init.headers ?? {}) },
    });
    const text = await response.text();
    if (!response.ok) throw apiErrorFrom(response.status, text);
    return (text ? JSON.parse(text) : undefined) as T;
  }
  const post = <T>(path: string, body?: unknown) => call<T>(path, { method: "POST", ...(body === undefined ? {} : { body: JSON.stringify(body) }) });
  const workflowPath = (id: string) => `/api/workflows/${segment(id)}`;
  const runPath = (id: string) => `/api/runs/${segment(id)}`;
  const workspacePath = (id: string) => `/api/workspaces/${segment(id)}`;
  const basePath = (id: string) => `/api/knowledge-bases/${segment(id)}`;

  const workflowPage = (page?: PageRequest) => call<ListPage<"workflows", WorkflowSummary>>(`/api/workflows${pageQuery(page)}`);
  const runPage = (workflowId: string, page: RunPageRequest = {}) =>
    call<ListPage<"runs", RunSummary>>(`${workflowPath(workflowId)}/runs${pageQuery(page, runFilters(page))}`);
  const workspaceRunPage = ({ workflow, ...page }: WorkspaceRunPageRequest = {}) =>
    call<ListPage<"runs", WorkspaceRunSummary>>(`/api/runs${pageQuery(page, { ...(workflow ? { workflow } : {}), ...runFilters(page) })}`);
  const deploymentPage = (workflowId: string, page?: PageRequest) =>
    call<ListPage<"deployments", DeploymentInfo>>(`${workflowPath(workflowId)}/deployments${pageQuery(page)}`);
  const basePage = (page?: PageRequest) => call<ListPage<"knowledgeBases", KnowledgeBaseSummary>>(`/api/knowledge-bases${pageQuery(page)}`);
  const documentPage = (id: string, page?: PageRequest) => call<ListPage<"documents", KnowledgeDocument>>(`${basePath(id)}/documents${pageQuery(page)}`);
  // A model id keeps its slashes as path segments: /api/prices/ollama/llama3.2, /api/prices/ollama/*.
  const pricePath = (model: string) => `/api/prices/${model.split("/").map(segment).join("/")}`;
  const pricePage = (page?: PageRequest) => call<ListPage<"overrides", PriceOverride>>(`/api/prices${pageQuery(page)}`);
  const secretPage = (page?: PageRequest) => call<ListPage<"secrets", SecretListEntry>>(`/api/secrets${pageQuery(page)}`);
  const apiKeyPage = (page?: PageRequest) => call<ListPage<"apiKeys", ApiKeySummary>>(`/api/api-keys${pageQuery(page)}`);
  const workspacePage = (page?: PageRequest) => call<ListPage<"workspaces", WorkspaceSummary>>(`/api/workspaces${pageQuery(page)}`);
  const memberPage = (id: string, page?: PageRequest) => call<WorkspaceMembersPage>(`${workspacePath(id)}/members${pageQuery(page)}`);
  const schedulePath = (id: string) => `/api/schedules/${segment(id)}`;
  const schedulePage = (workflowId: string, page?: PageRequest) =>
    call<ListPage<"schedules", ScheduleView>>(`${workflowPath(workflowId)}/schedules${pageQuery(page)}`);
  const webhookPage = (workflowId: string, page?: PageRequest) =>
    call<ListPage<"webhooks", WebhookSummary>>(`${workflowPath(workflowId)}/webhooks${pageQuery(page)}`);
  const chatPath = (chatId: string) => `/api/chat/${segment(chatId)}`;
  const conversationPath = (chatId: string, conversationId: string) => `${chatPath(chatId)}/conversations/${segment(conversationId)}`;
  const conversationPage = (chatId: string, page?: PageRequest) =>
    call<ListPage<"conversations", ChatConversationSummary>>(`${chatPath(chatId)}/conversations${pageQuery(page)}`);
  const chatMessagePage = (chatId: string, conversationId: string, page?: PageRequest) =>
    call<ListPage<"messages", ChatMessageView>>(`${conversationPath(chatId, conversationId)}/messages${pageQuery(page)}`);

  // Each list has `page` (one page, with the cursor of the next) and `list` (every item, page after page).
  return {
    workflows: {
      list: () => everyItem("workflows", workflowPage),
      page: workflowPage,
      get: (id: string) => call<StoredWorkflow>(workflowPath(id)),
      create: (document: WorkflowDocumentInput) => post<SavedWorkflow>("/api/workflows", document),
      /** A flow file of another tool (or a Trellis export) as a new workflow, with the report of what mapped. */
      import: (request: ImportRequest) => post<ImportedWorkflow>("/api/workflows/import", request),
      update: (id: string, document: WorkflowDocumentInput & { version: number }) =>
        call<SavedWorkflow>(workflowPath(id), { method: "PUT", body: JSON.stringify(document) }),
      remove: (id: string) => call<void>(workflowPath(id), { method: "DELETE" }),
      /** What a run with this input would cost, before running it (no provider is called). */
      estimate: (id: string, request: EstimateRequest = {}) => post<WorkflowEstimate>(`${workflowPath(id)}/estimate`, request),
    },
    /** Deployments: frozen copies a workflow's API, hooks, schedules and chat run (docs/CONTRACT.md section 9). */
    deployments: {
      list: (workflowId: string) => everyItem("deployments", (page) => deploymentPage(workflowId, page)),
      page: deploymentPage,
      get: (workflowId: string, id: string) => call<DeploymentWithDocument>(`${workflowPath(workflowId)}/deployments/${segment(id)}`),
      create: (workflowId: string, request: CreateDeploymentRequest = {}) => post<DeploymentInfo>(`${workflowPath(workflowId)}/deployments`, request),
      activate: (workflowId: string, id: string) => post<DeploymentInfo>(`${workflowPath(workflowId)}/deployments/${segment(id)}/activate`),
      /** What changed from one side to the other: a deployment's id or `draft`. */
      diff: (workflowId: string, from: string, to: string) => call<DocumentDiff>(`${workflowPath(workflowId)}/deployments/diff${pageQuery({}, { from, to })}`),
      /** Runs the active deployment in the background; 409 `not_deployed` before the first deploy. */
      execute: (workflowId: string, request: StartRunRequest = {}) =>
        post<{ runId: string }>(`${workflowPath(workflowId)}/execute`, { ...request, wait: false }),
    },
    runs: {
      /** `budget`: the cap that applies when the run has one (a request's cap above the workflow's is not it). */
      start: (workflowId: string, request: StartRunRequest = {}) =>
        post<{ runId: string; budget?: RunBudget }>(`${workflowPath(workflowId)}/runs`, { ...request, wait: false }),
      /** The newest runs (one page, as this list always answered: a workflow's runs grow without bound); `page` goes further. */
      list: (workflowId: string, statuses: readonly RunStatus[] = []) => runPage(workflowId, { status: statuses }).then((body) => body.runs),
      page: runPage,
      /** A page of every run in the workspace, across its workflows, newest first. */
      workspacePage: workspaceRunPage,
      get: (runId: string) => call<ApiRun>(runPath(runId)),
      /** The workflow document the run ran and its version, to show the run as it was. */
      document: (runId: string) => call<RunDocument>(`${runPath(runId)}/document`),
      cancel: (runId: string) => post<{ runId: string; status: string }>(`${runPath(runId)}/cancel`),
      /** Runs the current draft again from `blockId`, reusing the finished run's results before it. */
      rerun: (runId: string, blockId: string) => post<RerunStarted>(`${runPath(runId)}/rerun`, { blockId }),
      /** Runs the current draft again with every model and tool call answered from the finished run's recordings: nothing sent, $0. */
      replay: (runId: string) => post<ReplayStarted>(`${runPath(runId)}/replay`, {}),
      /** Two runs of one workflow compared block by block, from `runId` to `otherId`. */
      diff: (runId: string, otherId: string) => call<RunDiff>(`${runPath(runId)}/diff/${segment(otherId)}`),
      decide: (runId: string, toolCallId: string, decision: ApprovalDecision) => post<unknown>(`${runPath(runId)}/approvals/${segment(toolCallId)}`, decision),
      /** The asks waiting for an answer (docs/CONTRACT.md section 10). */
      asks: (runId: string) => call<AskList>(`${runPath(runId)}/asks`),
      answer: (runId: string, spanId: string, answer: AskAnswerRequest) => post<unknown>(`${runPath(runId)}/asks/${segment(spanId)}`, answer),
      eventsUrl: (runId: string) => `${baseUrl}${runPath(runId)}/events`,
    },
    /** A workflow's webhooks (docs/CONTRACT.md section 9): the secret goes in once and never comes back. */
    webhooks: {
      list: (workflowId: string) => everyItem("webhooks", (page) => webhookPage(workflowId, page)),
      page: webhookPage,
      create: (workflowId: string, request: CreateWebhookRequest = {}) => post<CreatedWebhook>(`${workflowPath(workflowId)}/webhooks`, request),
      remove: (id: string) => call<void>(`/api/webhooks/${segment(id)}`, { method: "DELETE" }),
      /** The hook's last 20 deliveries, newest first. */
      deliveries: (id: string) => call<{ deliveries: WebhookDeliveryView[] }>(`/api/webhooks/${segment(id)}/deliveries`).then((body) => body.deliveries),
    },
    knowledge: {
      listBases: () => everyItem("knowledgeBases", basePage),
      pageBases: basePage,
      createBase: (request: CreateKnowledgeBaseRequest) => post<KnowledgeBaseSummary>("/api/knowledge-bases", request),
      deleteBase: (id: string) => call<void>(basePath(id), { method: "DELETE" }),
      listDocuments: (id: string) => everyItem("documents", (page) => documentPage(id, page)),
      pageDocuments: documentPage,
      deleteDocument: (id: string, documentId: string) => call<void>(`${basePath(id)}/documents/${segment(documentId)}`, { method: "DELETE" }),
      pageChunks: (id: string, documentId: string, page?: PageRequest) =>
        call<ListPage<"chunks", ChunkView>>(`${basePath(id)}/documents/${segment(documentId)}/chunks${pageQuery(page)}`),
      search: (id: string, request: SearchRequestBody) => post<SearchAnswer>(`${basePath(id)}/search`, request),
      documentsUrl: (id: string) => `${baseUrl}${basePath(id)}/documents`,
    },
    models: {
      list: () => call<ModelList>("/api/models").then((body) => body.models),
      /** The models priced for the workspace, with the price catalog's version and date. */
      get: () => call<ModelList>("/api/models"),
    },
    /** The workspace's own model prices (docs/CONTRACT.md section 12): admins and owners change them. */
    prices: {
      list: () => everyItem("overrides", pricePage),
      page: pricePage,
      /** Creates the override of `model` (an id or `provider/*`) or replaces it. */
      put: (model: string, prices: PutPriceOverrideRequest) => call<PriceOverride>(pricePath(model), { method: "PUT", body: JSON.stringify(prices) }),
      remove: (model: string) => call<void>(pricePath(model), { method: "DELETE" }),
    },
    /** What an agent may use as tools: the tool types and MCP servers, and one server's tools asked of it now. */
    tools: {
      catalog: () => call<ToolCatalog>("/api/tools"),
      mcpServerTools: (server: string) => call<McpServerTools>(`/api/tools/mcp/${segment(server)}`),
    },
    /** Stored secrets: names and dates out, a value only ever sent in (docs/CONTRACT.md section 8). */
    secrets: {
      list: () => everyItem("secrets", secretPage),
      page: secretPage,
      /** Creates the secret or replaces its value. */
      put: (name: string, value: string) => call<void>(`/api/secrets/${segment(name)}`, { method: "PUT", body: JSON.stringify({ value }) }),
      remove: (name: string) => call<void>(`/api/secrets/${segment(name)}`, { method: "DELETE" }),
    },
    /** The caller's API keys: the key itself only in the answer of create (docs/CONTRACT.md section 7). */
    apiKeys: {
      list: () => everyItem("apiKeys", apiKeyPage),
      page: apiKeyPage,
      create: (request: CreateApiKeyRequest) => post<CreatedApiKey>("/api/api-keys", request),
      /** Revokes the key at once: the next request with it gets 401. */
      revoke: (id: string) => call<void>(`/api/api-keys/${segment(id)}`, { method: "DELETE" }),
    },
    /** Runs, tokens and dollars over a period, grouped (docs/CONTRACT.md section 9). */
    usage: {
      get: (query: UsageQueryInput = {}) =>
        call<UsageReport>(
          `/api/usage${pageQuery({}, Object.fromEntries(Object.entries(query).filter((entry): entry is [string, string] => Boolean(entry[1]))))}`,
        ),
    },
    /** Monthly caps of the workspace and its API keys, with this month's spending (docs/CONTRACT.md section 12). */
    budgets: {
      get: () => call<BudgetsResponse>("/api/budgets"),
      /** A number sets a cap, null removes it, a cap left out is kept. */
      put: (request: PutBudgetsRequest) => call<BudgetsResponse>("/api/budgets", { method: "PUT", body: JSON.stringify(request) }),
    },
    /** The caller's workspaces, their members and invitations (docs/CONTRACT.md section 7). */
    workspaces: {
      list: () => everyItem("workspaces", workspacePage),
      page: workspacePage,
      create: (request: WorkspaceRequest) => post<WorkspaceSummary>("/api/workspaces", request),
      rename: (id: string, request: WorkspaceRequest) => call<WorkspaceSummary>(workspacePath(id), { method: "PATCH", body: JSON.stringify(request) }),
      /** Every member and open invitation, page after page. */
      members: async (id: string): Promise<WorkspaceMembers> => {
        const pages = await everyPage((page) => memberPage(id, page));
        return { members: pages.flatMap((page) => page.members), invitations: pages.flatMap((page) => page.invitations) };
      },
      membersPage: memberPage,
      /** Invites by email: the answer holds the link to give the invitee, shown this once. */
      invite: (id: string, request: InviteMemberRequest) => post<CreatedInvitation>(`${workspacePath(id)}/members`, request),
      changeRole: (id: string, userId: string, request: ChangeRoleRequest) =>
        call<WorkspaceMember>(`${workspacePath(id)}/members/${segment(userId)}`, { method: "PATCH", body: JSON.stringify(request) }),
      removeMember: (id: string, userId: string) => call<void>(`${workspacePath(id)}/members/${segment(userId)}`, { method: "DELETE" }),
      revokeInvitation: (id: string, invitationId: string) => call<void>(`${workspacePath(id)}/invitations/${segment(invitationId)}`, { method: "DELETE" }),
    },
    /** A workflow's schedules: cron times that run its active deployment (docs/CONTRACT.md section 9). */
    schedules: {
      list: (workflowId: string) => everyItem("schedules", (page) => schedulePage(workflowId, page)),
      page: schedulePage,
      create: (workflowId: string, request: CreateScheduleRequest) => post<ScheduleView>(`${workflowPath(workflowId)}/schedules`, request),
      /** The next fire times of an expression in a zone, or an ApiError naming what is wrong with it; stores nothing. */
      preview: (request: SchedulePreviewRequest) => post<SchedulePreview>("/api/schedules/preview", request),
      setPaused: (id: string, paused: boolean) => call<ScheduleView>(schedulePath(id), { method: "PATCH", body: JSON.stringify({ paused }) }),
      remove: (id: string) => call<void>(schedulePath(id), { method: "DELETE" }),
    },
    /** A workflow published as a tool of the workspace's MCP server at /api/mcp (docs/CONTRACT.md section 9). */
    mcp: {
      publication: (workflowId: string) => call<McpPublication>(`${workflowPath(workflowId)}/mcp`),
      publish: (workflowId: string, request: McpPublicationRequest) => post<McpPublication>(`${workflowPath(workflowId)}/mcp`, request),
    },
    /**
     * A workflow's public chat (docs/CONTRACT.md section 9): its settings for members, and the
     * visitor's side, which needs no credentials (a cookie says whose conversations are whose).
     */
    chat: {
      settings: (workflowId: string) => call<ChatSettings | NoChatSettings>(`${workflowPath(workflowId)}/chat`),
      configure: (workflowId: string, request: ChatSettingsRequest) => post<ChatSettings>(`${workflowPath(workflowId)}/chat`, request),
      info: (chatId: string) => call<PublicChatInfo>(chatPath(chatId), { cache: "no-store" }),
      /** Gives the chat's password; 401 password_required when it is wrong. */
      unlock: (chatId: string, password: string) => post<void>(`${chatPath(chatId)}/access`, { password }),
      conversations: (chatId: string) => everyItem("conversations", (page) => conversationPage(chatId, page)),
      messages: (chatId: string, conversationId: string) => everyItem("messages", (page) => chatMessagePage(chatId, conversationId, page)),
      stop: (chatId: string, conversationId: string) => post<{ stopped: boolean }>(`${conversationPath(chatId, conversationId)}/stop`),
      /** Answers the ask the conversation's reply waits on (from its stream's `ask.requested`). */
      answer: (chatId: string, conversationId: string, spanId: string, answer: AskAnswerRequest) =>
        post<unknown>(`${conversationPath(chatId, conversationId)}/asks/${segment(spanId)}`, answer),
      /** POST `{ message, conversationId? }` here with Accept: text/event-stream: the reply's stream (ChatStreamEvent). */
      messagesUrl: (chatId: string) => `${baseUrl}${chatPath(chatId)}/messages`,
    },
    /** What `{{NAME}}` may read: stored secret names and the allowed environment variables that are set, never values. */
    envNames: () => call<{ names: string[] }>("/api/env-names").then((body) => body.names),
    /** Better-auth's routes: the session travels in an HTTP-only cookie (same origin). */
    auth: {
      signIn: (request: SignInRequest) => post<{ user: AuthUser }>("/api/auth/sign-in/email", request),
      /** Creates the owner on first start; refused (403) once a user exists. */
      signUp: (request: SignUpRequest) => post<{ user: AuthUser }>("/api/auth/sign-up/email", request),
      signOut: () => post<{ success: boolean }>("/api/auth/sign-out", {}),
      /** An invitation as its page shows it (the token is the credential). */
      invitation: (token: string) => call<InvitationPreview>(`/api/auth/invitations/${segment(token)}`),
      /** Accepts an invitation: a new user sends a name and password, a signed-in invitee nothing. */
      acceptInvitation: (token: string, request: AcceptInvitationRequest = {}) =>
        post<{ workspaceId: string; email: string }>(`/api/auth/invitations/${segment(token)}`, request),
      /** The signed-in user, or null. */
      session: async (): Promise<SessionUser | null> => {
        const body = await call<{ user?: AuthUser } | null>("/api/auth/get-session", { cache: "no-store" });
        return body?.user ? { userId: body.user.id, email: body.user.email, name: body.user.name } : null;
      },
    },
  };
}

export type ApiClient = ReturnType<typeof createApiClient>;

/** The browser's client: same origin. */
export const api = createApiClient();
