import { isTrellisError, TrellisError } from "@/executor/errors";
import type { ErrorBody, IssueDetail } from "@/contract";

/** Errors raised by the HTTP layer itself: bad JSON, a body too large. */
export class RequestError extends TrellisError {
  readonly status: number;
  constructor(status: number, code: string, message: string, details: IssueDetail[] = []) {
    super(code, message, { details });
    this.status = status;
  }
}

const STATUS_BY_CODE: Record<string, number> = {
  invalid_request: 400,
  invalid_json: 400,
  invalid_workflow: 400,
  invalid_input: 400,
  unresolved_reference: 400,
  not_found: 404,
  version_conflict: 409,
  too_large: 413,
};

/**
 * The one place errors become HTTP answers. Known errors keep their message (written for users,
 * never holding secrets); anything else is logged by code only and answered with a generic 500,
 * so internals never leak.
 */
export function errorResponse(error: unknown): Response {
  // By brand, not instanceof: routes are bundled apart and share the runtime (see isTrellisError).
  if (isTrellisError(error)) {
    const ownStatus = (error as { status?: unknown }).status;
    const status = typeof ownStatus === "number" ? ownStatus : (STATUS_BY_CODE[error.code] ?? 500);
    if (status < 500) {
      const body: ErrorBody = { error: { code: error.code, message: error.message, details: error.details } };
      const extra = (error as { responseExtra?: Record<string, unknown> }).responseExtra;
      if (extra) Object.assign(body.error, extra);
      return Response.json(body, { status });
    }
  }
  const name = error instanceof Error ? error.name : typeof error;
  console.error(`[trellis] unexpected ${name} while handling a request`, error instanceof Error ? error.stack : "");
  return Response.json({ error: { code: "internal_error", message: "Something went wrong on the server." } }, { status: 500 });
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
