import type { IssueDetail, Usage } from "@/contract";

/**
 * The error hierarchy shared by every layer. Each error has a stable code and a retryable flag;
 * only lib/ turns them into HTTP answers. Messages must never contain secrets.
 */

/**
 * A brand shared by every copy of this module: a bundler may load it once per route, and an error
 * thrown by one copy must still be recognised by another (where `instanceof` fails).
 */
const TRELLIS_ERROR_BRAND = Symbol.for("trellis.error");

export function isTrellisError(error: unknown): error is TrellisError {
  return typeof error === "object" && error !== null && (error as Record<symbol, unknown>)[TRELLIS_ERROR_BRAND] === true;
}

export class TrellisError extends Error {
  readonly [TRELLIS_ERROR_BRAND] = true;
  readonly code: string;
  readonly retryable: boolean;
  readonly details: IssueDetail[];

  constructor(code: string, message: string, options: { retryable?: boolean; details?: IssueDetail[]; cause?: unknown } = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = new.target.name;
    this.code = code;
    this.retryable = options.retryable ?? false;
    this.details = options.details ?? [];
  }
}

/** The workflow graph or a block's config is invalid. Raised at save time and before a run. */
export class GraphValidationError extends TrellisError {
  constructor(message: string, details: IssueDetail[] = []) {
    super("invalid_workflow", message, { details });
  }
}

/** A reference such as `<Agent.content>` cannot be resolved. */
export class ReferenceError extends TrellisError {
  constructor(message: string, details: IssueDetail[] = []) {
    super("unresolved_reference", message, { details });
  }
}

/** A block handler failed while running. */
export class BlockExecutionError extends TrellisError {
  constructor(message: string, options: { code?: string; retryable?: boolean; cause?: unknown } = {}) {
    super(options.code ?? "block_failed", message, options);
  }
}

/** A model provider call failed (bad key, rate limit, bad answer, broken stream). */
export class ProviderCallError extends TrellisError {
  readonly provider: string;
  readonly status?: number;
  constructor(provider: string, message: string, options: { code?: string; status?: number; retryable?: boolean; cause?: unknown } = {}) {
    super(options.code ?? "provider_error", message, options);
    this.provider = provider;
    this.status = options.status;
  }
}

/** The outbound guard refused an address (SSRF protection). */
export class OutboundRefusedError extends TrellisError {
  constructor(message: string) {
    super("outbound_refused", message);
  }
}

/** Sandboxed code hit a limit (time, memory, output size) or threw. */
export class SandboxError extends TrellisError {
  constructor(code: "sandbox_timeout" | "sandbox_memory" | "sandbox_output" | "sandbox_error", message: string) {
    super(code, message);
  }
}

/** The run or a block was cancelled. */
export class CancelledError extends TrellisError {
  constructor(message = "The run was cancelled") {
    super("cancelled", message);
  }
}

/** A block or run exceeded its time limit. */
export class TimeoutError extends TrellisError {
  constructor(message: string) {
    super("timeout", message, { retryable: true });
  }
}

/**
 * A handler error may say what the block spent before failing (`usageSoFar`, for example a model
 * call whose stream then broke) and what it produced (`partialOutput`, the partial text). The
 * engine adds the usage to the run's totals and keeps the partial output on the failed span.
 */
export interface FailureRemains {
  usage?: Usage;
  partialOutput?: unknown;
}

export function spentBeforeFailure(error: unknown): FailureRemains {
  if (typeof error !== "object" || error === null) return {};
  const record = error as { usageSoFar?: unknown; partialOutput?: unknown };
  const remains: FailureRemains = {};
  const usage = record.usageSoFar as FailureRemains["usage"] | undefined;
  if (usage && typeof usage === "object" && "tokens" in usage && (usage.tokens.total > 0 || (usage.cost?.total ?? 0) > 0 || usage.unpriced)) remains.usage = usage;
  if (record.partialOutput !== undefined) remains.partialOutput = record.partialOutput;
  return remains;
}

export function errorInfo(error: unknown): { code: string; message: string } {
  if (isTrellisError(error)) return { code: error.code, message: error.message };
  if (error instanceof Error) return { code: "internal_error", message: error.message };
  return { code: "internal_error", message: String(error) };
}
