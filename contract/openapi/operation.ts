import { z } from "zod";
import { PAGE_LIMIT_DEFAULT, PAGE_LIMIT_MAX } from "../pagination";
import type { WorkspaceRole } from "../workspaces";

/**
 * One REST operation, declared once: its method and path, who may call it, its request and answer
 * schemas, and the words the OpenAPI document and the API docs page show. The server binds its
 * handler by `operationId` (lib/http/endpoint.ts) and dispatches requests by method and path from
 * it, enforcing the access and role written here; the API client builds its URLs from it and
 * parses its answers with its schemas. Plain data over zod: no framework, no server code.
 */

export type HttpMethod = "GET" | "POST" | "PUT" | "PATCH" | "DELETE";

/** `public`: no credentials; `signed-in`: a session or an API key, in no particular workspace; `member`: acting in a workspace with a role. */
export type OperationAccess = "public" | "signed-in" | "member";

/** The document's tags, in the order the docs page shows them. */
export const OPERATION_TAGS = [
  {
    name: "Workflows",
    description: "Workflow documents: list, create, read, update (with the version it was based on) and delete.",
  },
  {
    name: "Runs",
    description:
      "Starting runs, following their event stream, cancelling them and deciding the tool calls that wait for a person.",
  },
  {
    name: "Deployments",
    description:
      "Frozen copies of a workflow: the API's `execute`, hooks, schedules and chat run the active one, so editing the draft changes nothing they run.",
  },
  {
    name: "Chat",
    description:
      "A workflow's public chat: its settings for members, and the page's calls, which need no credentials (a cookie keeps each browser to its own conversations).",
  },
  {
    name: "MCP",
    description:
      "Workflows served over the Model Context Protocol: publish a deployed workflow as a tool, and the workspace's MCP server (Streamable HTTP, API key) that lists and runs them.",
  },
  {
    name: "Evaluations",
    description:
      "Datasets of cases, suites of scorers, evaluations of a workflow version over a suite, their comparison, and the deploy gate they feed.",
  },
  {
    name: "Knowledge",
    description: "Knowledge bases, their documents (uploaded as files, processed in the background) and search.",
  },
  {
    name: "Usage",
    description:
      "What runs spent over a period, by API key, workflow, model, trigger or day: what each caller of a workflow costs.",
  },
  {
    name: "Model providers",
    description:
      "Where each model provider's key comes from for the workspace (its secret, else the server's environment), and a test of the connection.",
  },
  {
    name: "Prices",
    description:
      "A workspace's own model prices (negotiated rates, a local model's cost per token), charged before the operator's price file and the npm catalog.",
  },
  { name: "Secrets", description: "Stored secrets: names and dates out, values only in." },
  {
    name: "API keys",
    description: "The caller's API keys in the workspace it acts in; a key is shown once, when it is made.",
  },
  { name: "Workspaces", description: "Workspaces, their members and invitations." },
  {
    name: "Single sign-on",
    description:
      "A workspace's OpenID Connect provider: people it signs in are linked by its subject and join the workspace. Owners only.",
  },
  {
    name: "Audit",
    description:
      "The workspace's audit log: who signed in, and who changed what, when and from where. Read and exported by admins and owners; nothing edits or deletes an entry.",
  },
  {
    name: "Invitations",
    description: "An invitation link's two calls: public, the token in the path is the credential.",
  },
  {
    name: "System",
    description: "The server itself: health, models, tools, names for `{{` completion and this document.",
  },
] as const;

export type OperationTag = (typeof OPERATION_TAGS)[number]["name"];

/** Error statuses an operation may answer, each with the contract's error body. */
export type ErrorStatus = 400 | 401 | 402 | 403 | 404 | 409 | 413 | 415 | 421 | 429 | 500 | 502;

export interface OperationParameter {
  name: string;
  in: "path" | "query" | "header";
  description: string;
  /** Path parameters are always required. */
  required?: boolean;
  /** A path parameter that takes the rest of the path, slashes and all (a model id: `ollama/llama3.2`); it must end the path. */
  rest?: true;
  /** A string when absent. */
  schema?: z.ZodType;
}

export interface OperationRequest {
  schema: z.ZodType;
  contentType?: "application/json" | "multipart/form-data";
  /** Text formats the operation reads as well as JSON (a dataset's CSV or JSON-lines import), each a string body. */
  alsoAccepts?: readonly ("text/csv" | "application/x-ndjson")[];
  /** False when an empty body is accepted (every field optional). */
  required: boolean;
  description?: string;
  /** A real body, shown on the docs page and checked against the generated schema by the tests. */
  example?: unknown;
}

export interface OperationAnswer {
  status: number;
  description: string;
  /** Absent: the answer has no body (204, or a stream described in words). */
  schema?: z.ZodType;
  /** A text format (an event stream, an export, the Prometheus exposition format) is described in words and has no schema. */
  contentType?: "application/json" | "text/event-stream" | "text/plain" | "text/csv" | "application/x-ndjson";
  /** Response headers, by name, with what they mean. */
  headers?: Record<string, string>;
}

export interface ApiOperation {
  operationId: string;
  method: HttpMethod;
  /** OpenAPI style: `/api/workflows/{id}`. */
  path: string;
  tag: OperationTag;
  summary: string;
  description?: string;
  access: OperationAccess;
  /** For member operations: the weakest role that may call it, and the one the server enforces. */
  role?: WorkspaceRole;
  /**
   * `public`: pages of any site may call it and read its answers (a hook): the server answers its
   * preflight (allowing its header parameters) and adds `Access-Control-Allow-Origin: *`. Such an
   * operation is authorised by what the request names, never by a cookie, so it must be public.
   */
  cors?: "public";
  /** The body's media type is left to the handler (a hook takes JSON and forms); only for a `cors: "public"` operation. */
  acceptsAnyBody?: true;
  /** A `WWW-Authenticate` challenge added to its 401 answers (MCP clients read it). */
  challenge?: string;
  parameters?: readonly OperationParameter[];
  request?: OperationRequest;
  /** The successful answers, the usual one first. */
  answers: readonly [OperationAnswer, ...OperationAnswer[]];
  /** The operation's own refusals (an unknown id, a conflict, a provider failing); errorStatusesOf adds the ones its kind always may answer. */
  errors?: readonly ErrorStatus[];
}

/** The path parameters of an OpenAPI-style path: `/api/runs/{id}/diff/{otherId}` has `{ id: string; otherId: string }`. */
export type PathParams<Path extends string> = string extends Path
  ? Record<string, string>
  : { [Name in PathParameterNames<Path>]: string };

type PathParameterNames<Path extends string> = Path extends `${string}{${infer Name}}${infer Rest}`
  ? Name | PathParameterNames<Rest>
  : never;

export const pathParameter = (name: string, description: string, schema?: z.ZodType): OperationParameter => ({
  name,
  in: "path",
  description,
  required: true,
  ...(schema ? { schema } : {}),
});

/** `?limit=&cursor=` of every paged list (contract/pagination.ts). */
export const PAGE_PARAMETERS: OperationParameter[] = [
  {
    name: "limit",
    in: "query",
    description: `Items on the page: 1 to ${PAGE_LIMIT_MAX}. A larger one is refused (400) rather than cut; follow nextCursor for more.`,
    schema: z.number().int().min(1).max(PAGE_LIMIT_MAX).default(PAGE_LIMIT_DEFAULT),
  },
  {
    name: "cursor",
    in: "query",
    description: "The `nextCursor` of the page before, unchanged; left out for the first page.",
  },
];

const CHANGES = new Set<HttpMethod>(["POST", "PUT", "PATCH", "DELETE"]);

/**
 * Every error status an operation may answer: its own, plus what every endpoint of its kind may
 * (lib/http/route.ts and request-guard.ts): 421 for a Host the server does not answer to and 500
 * always; 401 without credentials; 403 and 404 for a member (a weak role, no workspace, a named
 * workspace the caller is not in); 403 (another site) and 415 (a body of another type) on a
 * change; 400 and 413 for a body that is read, or a query that is.
 */
export function errorStatusesOf(operation: ApiOperation): ErrorStatus[] {
  const statuses = new Set<ErrorStatus>([421, 500, ...(operation.errors ?? [])]);
  if (operation.access !== "public") statuses.add(401);
  if (operation.access === "member") [403, 404].forEach((status) => statuses.add(status as ErrorStatus));
  if (CHANGES.has(operation.method)) [403, 415].forEach((status) => statuses.add(status as ErrorStatus));
  if (operation.request) [400, 413].forEach((status) => statuses.add(status as ErrorStatus));
  if (operation.parameters?.some((parameter) => parameter.in === "query")) statuses.add(400);
  return [...statuses].sort((a, b) => a - b);
}
