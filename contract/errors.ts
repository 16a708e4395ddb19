import { z } from "zod";

/** How errors look on the wire (docs/CONTRACT.md section 5): in API answers, events and spans. */

/**
 * Every error code the server produces, in API answers, run and block events and spans. A closed
 * list: the server's errors are typed by it (a code not listed here does not compile) and
 * lib/http maps each one to an HTTP status. Clients may branch on these codes.
 */
export const ERROR_CODES = [
  // The request or the stored data it names
  "invalid_request",
  "invalid_json",
  "invalid_input",
  "too_large",
  "not_found",
  "version_conflict",
  "unsupported_file_type",
  // Refused before an endpoint runs (lib/http/request-guard.ts): a body that is not the endpoint's
  // media type, a Host this server does not answer to, a change sent from another site
  "unsupported_media_type",
  "unauthenticated",
  /** Signed in, but the role in this workspace may not do this. */
  "forbidden",
  /** The change contradicts what is stored (an invitation for a member, removing the last owner). */
  "conflict",
  "host_not_allowed",
  "cross_site_request",
  // Deployments and triggers (section 9)
  /** The workflow has no active deployment for the API, a hook, a schedule or a chat to run. */
  "not_deployed",
  /** The deploy gate's evaluation of the draft missed a threshold (the message names it and the figure). */
  "evaluation_failed",
  /** A webhook's signature header is missing or does not match the body. */
  "invalid_signature",
  /** A chat with a password was asked without the right one. */
  "password_required",
  /** Too many wrong passwords: the next guess is refused unchecked until `retryAfter` seconds (also the Retry-After header) have passed. */
  "too_many_attempts",
  // Workflow documents, block configs, references and expressions
  "invalid_workflow",
  /** An imported file is none of the formats POST /api/workflows/import knows (the message lists them). */
  "unknown_format",
  "invalid_config",
  "unresolved_reference",
  "invalid_expression",
  "iteration_limit",
  /** A retry edge was taken as many times as its cap (`maxRetries`) and its source has no `retriesExhausted` edge. */
  "retries_exhausted",
  // Runs
  "cancelled",
  "timeout",
  "run_setup_failed",
  /** A replay met a model or tool call its source run has no recording of (a changed prompt, a newly reached block): nothing was sent. */
  "not_recorded",
  "server_restarted",
  "worker_lost",
  /** Storage fell so far behind a run's events that the run was stopped to keep the server's memory bounded. */
  "storage_behind",
  /** The database cannot be reached (a restart, a failover, a network fault): nothing was done; retry after `Retry-After` seconds. */
  "database_unavailable",
  /** A model call could have crossed a budget (the run's, the request's, or a monthly cap): it was not made and the run stopped. */
  "budget_exceeded",
  /** A request that spends on models outside a run (the copilot) would cross the workspace's monthly budget: nothing was sent. */
  "budget_reached",
  /** The copilot was asked with the offline model: it needs a language model (the message names the keys that enable one). */
  "language_model_required",
  "approval_unavailable",
  /** A handler failed without a more precise code; retried under the block's policy. */
  "block_failed",
  /** The engine tests' simulated blocks fail with it. */
  "task_failed",
  "internal_error",
  // Blocks
  "no_route",
  "invalid_route",
  "invalid_scores",
  "invalid_service_call",
  "service_failed",
  // HTTP from blocks and tools (api, web, fetch); clients also use `http_error` for an answer
  // that is not a contract error body
  "http_error",
  "invalid_response",
  "response_too_large",
  "unsupported_content",
  // Model providers and embedders
  "provider_error",
  "provider_unavailable",
  "provider_unreachable",
  "rate_limited",
  "invalid_api_key",
  "missing_api_key",
  "missing_base_url",
  "model_not_found",
  "invalid_model_id",
  "stream_interrupted",
  "invalid_structured_output",
  "tool_choice_violated",
  "invalid_embedding_model",
  // Agent tools
  "invalid_tool",
  "invalid_tool_input",
  "unknown_tool",
  "tool_denied",
  /** A file tool refused a path: outside the workspace's files folder, a link out of it, a device, not text. */
  "file_refused",
  "mcp_unavailable",
  "invalid_mcp_config",
  "workflow_cycle",
  "workflow_depth",
  "workflow_failed",
  // Sandbox and the outbound guard
  "sandbox_error",
  "sandbox_timeout",
  "sandbox_memory",
  "sandbox_output",
  "outbound_refused",
  "outbound_unresolved",
  "outbound_failed",
  "invalid_configuration",
  // Knowledge documents and stored secrets
  "document_unreadable",
  /** The disk holding a folder the server writes (the embedded database, the upload folder) lacks the space a write needs; the message names the folder and the space. */
  "insufficient_storage",
  "secret_unreadable",
  "invalid_secret_key",
  // Made by clients, never sent by the server: a run whose stream ended without a final event,
  // an upload that could not reach the server
  "run_ended",
  "network_error",
] as const;

export type ErrorCode = (typeof ERROR_CODES)[number];

const KNOWN_CODES: ReadonlySet<string> = new Set(ERROR_CODES);

/** Whether a code read from the wire or from storage is one of ERROR_CODES. */
export function isErrorCode(code: string): code is ErrorCode {
  return KNOWN_CODES.has(code);
}

export const issueDetailSchema = z.object({
  path: z.string().describe("Where the problem is, e.g. `blocks[3].config.model`; empty for the value itself."),
  message: z.string(),
});
export type IssueDetail = z.infer<typeof issueDetailSchema>;

/**
 * An error as events, spans and stored runs carry it. `code` is an ErrorCode when the server
 * made it, but stays `string` here: stored runs and a newer server may carry codes this client
 * does not know, and a reader must not assume the list is complete.
 */
export const errorInfoSchema = z.object({ code: z.string(), message: z.string() });
export type ErrorInfo = z.infer<typeof errorInfoSchema>;

/** The body of every error answer of the API. Loose: an error may carry fields of its own beside these. */
export const errorBodySchema = z.object({
  error: z.looseObject({
    code: z
      .string()
      .describe(
        "One of the contract's error codes (contract/errors.ts), e.g. `invalid_request`, `not_found`, `version_conflict`.",
      ),
    message: z.string().describe("Written for people; never holds a secret."),
    details: z.array(issueDetailSchema).optional().describe("One entry per offending field."),
  }),
});
export type ErrorBody = z.infer<typeof errorBodySchema>;

/** A zod issue path as the contract writes it: `blocks[1].config.model`, or "" for the value itself. */
function issuePath(path: ReadonlyArray<PropertyKey>): string {
  return path.reduce<string>(
    (text, part) => (typeof part === "number" ? `${text}[${part}]` : text ? `${text}.${String(part)}` : String(part)),
    "",
  );
}

/** zod's issues as the contract's error details. */
export function zodIssues(error: z.ZodError): IssueDetail[] {
  return error.issues.map((issue) => ({ path: issuePath(issue.path), message: issue.message }));
}
