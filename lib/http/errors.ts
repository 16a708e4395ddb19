import "server-only";
import { isTrellisError, TrellisError } from "@/executor";
import { isErrorCode, type ErrorBody, type ErrorCode, type IssueDetail } from "@/contract";
import { describeConnectionError, isDatabaseUnreachable } from "@/lib/db";
import { insufficientStorageOf } from "@/lib/system/insufficient-storage";
import { processLogger } from "@/lib/observability";

/**
 * The HTTP status of every error code: a code without one does not compile. 500 means the error
 * is not the client's to see (a server-side failure, or work inside a run that is reported in the
 * run's events and reaching a route only by a bug): it is answered with a generic message. Every
 * other status answers with the error's own message, which is written for users and holds no
 * secret.
 */
export const HTTP_STATUS_BY_CODE = {
  // The request, or the document it sent, is wrong.
  invalid_request: 400,
  invalid_json: 400,
  invalid_input: 400,
  invalid_workflow: 400,
  unknown_format: 400,
  invalid_config: 400,
  unresolved_reference: 400,
  invalid_expression: 400,
  not_found: 404,
  language_model_required: 400,
  budget_reached: 402,
  version_conflict: 409,
  too_large: 413,
  unsupported_file_type: 415,
  unsupported_media_type: 415,
  unauthenticated: 401,
  forbidden: 403,
  conflict: 409,
  not_deployed: 409,
  evaluation_failed: 409,
  invalid_signature: 401,
  password_required: 401,
  too_many_attempts: 429,
  // 421 Misdirected Request: the Host names a site this server does not serve (DNS rebinding);
  // 403 for the cross-site change, the request of a site the user did not mean to act from.
  host_not_allowed: 421,
  cross_site_request: 403,
  // A service behind the server failed (a model provider, an MCP server); the messages name the
  // provider and what to set, with keys scrubbed.
  mcp_unavailable: 502,
  provider_error: 502,
  provider_unavailable: 502,
  provider_unreachable: 502,
  rate_limited: 502,
  invalid_api_key: 502,
  missing_api_key: 502,
  missing_base_url: 502,
  model_not_found: 502,
  invalid_model_id: 502,
  stream_interrupted: 502,
  not_recorded: 409,
  invalid_structured_output: 502,
  tool_choice_violated: 502,
  invalid_embedding_model: 502,
  // Server-side: configuration, storage, the run machinery.
  internal_error: 500,
  run_setup_failed: 500,
  server_restarted: 500,
  worker_lost: 500,
  storage_behind: 503,
  database_unavailable: 503,
  // 507 Insufficient Storage: the message names the folder and the space needed; retry once space is freed.
  insufficient_storage: 507,
  secret_unreadable: 500,
  invalid_secret_key: 500,
  invalid_configuration: 500,
  invalid_mcp_config: 500,
  document_unreadable: 500,
  approval_unavailable: 500,
  // Failures inside a run: reported in its events, never an answer of their own.
  cancelled: 500,
  timeout: 500,
  budget_exceeded: 500,
  iteration_limit: 500,
  retries_exhausted: 500,
  block_failed: 500,
  task_failed: 500,
  no_route: 500,
  invalid_route: 500,
  invalid_scores: 500,
  invalid_service_call: 500,
  service_failed: 500,
  http_error: 500,
  invalid_response: 500,
  response_too_large: 500,
  unsupported_content: 500,
  invalid_tool: 500,
  // A tool call refused before it ran; it is the model's error result and a span's, not an answer's.
  invalid_tool_input: 500,
  unknown_tool: 500,
  tool_denied: 500,
  file_refused: 500,
  workflow_cycle: 500,
  workflow_depth: 500,
  workflow_failed: 500,
  sandbox_error: 500,
  sandbox_timeout: 500,
  sandbox_memory: 500,
  sandbox_output: 500,
  outbound_refused: 500,
  outbound_unresolved: 500,
  outbound_failed: 500,
  // Made by clients only.
  run_ended: 500,
  network_error: 500,
} as const satisfies Record<ErrorCode, number>;

/** Errors raised by the HTTP layer itself (bad JSON, a body too large); the table gives their status. */
export class RequestError extends TrellisError {
  constructor(code: ErrorCode, message: string, details: IssueDetail[] = []) {
    super(code, message, { details });
  }
}

/** The status of a code; 500 for one this server does not know (an error from another version's code). */
export function httpStatusOf(code: string): number {
  return isErrorCode(code) ? HTTP_STATUS_BY_CODE[code] : 500;
}

/** Seconds a client is told to wait (`Retry-After`) when the database cannot be reached. */
export const DATABASE_RETRY_AFTER_S = 5;

export const DATABASE_UNAVAILABLE_MESSAGE =
  "The database cannot be reached right now (it may be restarting); nothing was changed. Try again in a few seconds.";

/** Log lines about unreachable-database answers: one per few seconds, as every request of an outage fails alike. */
let lastOutageLog = 0;

/**
 * The one place errors become HTTP answers. Known errors keep their message (written for users,
 * never holding secrets); a database that cannot be reached is 503 `database_unavailable` with
 * `Retry-After`; anything else is logged by code only and answered with a generic 500, so
 * internals never leak.
 */
export function errorResponse(thrown: unknown): Response {
  // A full disk anywhere below (ENOSPC, PostgreSQL's disk_full) is 507, not a generic 500.
  const error = insufficientStorageOf(thrown) ?? thrown;
  // By brand, not instanceof: routes are bundled apart and share the runtime (see isTrellisError).
  if (isTrellisError(error)) {
    const status = httpStatusOf(error.code);
    if (status !== 500) {
      const body: ErrorBody = {
        error: { ...error.responseExtra, code: error.code, message: error.message, details: error.details },
      };
      const retryAfter =
        error.code === "database_unavailable" ? DATABASE_RETRY_AFTER_S : error.responseExtra?.retryAfter;
      return Response.json(body, {
        status,
        ...(typeof retryAfter === "number" ? { headers: { "retry-after": String(retryAfter) } } : {}),
      });
    }
  }
  if (isDatabaseUnreachable(error)) {
    if (Date.now() - lastOutageLog > 5_000) {
      lastOutageLog = Date.now();
      processLogger().warn(`answering 503: the database cannot be reached (${describeConnectionError(error)})`);
    }
    const body: ErrorBody = {
      error: { code: "database_unavailable", message: DATABASE_UNAVAILABLE_MESSAGE, details: [] },
    };
    return Response.json(body, { status: 503, headers: { "retry-after": String(DATABASE_RETRY_AFTER_S) } });
  }
  const name = error instanceof Error ? error.name : typeof error;
  processLogger().error({ err: error }, `unexpected ${name} while handling a request`);
  return Response.json(
    { error: { code: "internal_error", message: "Something went wrong on the server." } },
    { status: 500 },
  );
}

/** Wraps a route handler so every thrown error goes through errorResponse. */
export function handleErrors<Args extends unknown[]>(handler: (...args: Args) => Promise<Response>) {
  return async (...args: Args): Promise<Response> => {
    try {
      return await handler(...args);
    } catch (error) {
      return errorResponse(error);
    }
  };
}
