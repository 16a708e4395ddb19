import type { ErrorCode, IssueDetail, Usage } from "@/contract";

/**
 * The error hierarchy shared by every layer. Each error has a stable code from the contract's
 * closed list (ErrorCode) and a retryable flag; only lib/ turns them into HTTP answers. Messages
 * must never contain secrets.
 */

/**
 * A brand shared by every copy of this module: a bundler may load it once per route, and an error
 * thrown by one copy must still be recognised by another (where `instanceof` fails).
 */
const TRELLIS_ERROR_BRAND = Symbol.for("trellis.error");

export function isTrellisError(error: unknown): error is TrellisError {
  return (
    typeof error === "object" && error !== null && (error as Record<symbol, unknown>)[TRELLIS_ERROR_BRAND] === true
  );
}

/** What failed work leaves behind besides its error. */
export interface FailureRemains {
  /**
   * What it spent on models before it failed (a model call whose stream then broke, a router's
   * first call before its second missed). The engine adds it to the run's totals and shows it on
   * the failed block.
   */
  spent?: Usage;
  /** What it produced before failing (an agent's partial answer); kept on its failed span. */
  partialOutput?: unknown;
}

export interface TrellisErrorOptions extends FailureRemains {
  retryable?: boolean;
  details?: IssueDetail[];
  cause?: unknown;
}

/** Fixes the remains on an error being built: read-only from then on, so no layer it passes through can change them. */
function remainsDescriptors(remains: FailureRemains): PropertyDescriptorMap {
  const descriptors: PropertyDescriptorMap = {};
  if (remains.spent) descriptors.spent = { value: remains.spent, enumerable: true };
  if (remains.partialOutput !== undefined)
    descriptors.partialOutput = { value: remains.partialOutput, enumerable: true };
  return descriptors;
}

export class TrellisError extends Error {
  readonly [TRELLIS_ERROR_BRAND] = true;
  readonly code: ErrorCode;
  readonly retryable: boolean;
  readonly details: IssueDetail[];
  /**
   * FailureRemains, fixed when the error is built. A caller that spent more before the failure
   * (earlier calls of the same block) throws `failureCarrying(error, ...)` with the sum instead.
   */
  declare readonly spent?: Usage;
  declare readonly partialOutput?: unknown;
  /** Fields an API answer adds beside code, message and details (a version conflict's winning `current`). */
  declare responseExtra?: Readonly<Record<string, unknown>>;

  constructor(code: ErrorCode, message: string, options: TrellisErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = new.target.name;
    this.code = code;
    this.retryable = options.retryable ?? false;
    this.details = options.details ?? [];
    Object.defineProperties(this, remainsDescriptors(options));
  }
}

/**
 * The failure `error` carrying what the failed work left: a new error of the same class, with the
 * same code, message, cause and fields, whose `spent` and `partialOutput` are the ones given (each
 * given one replaces the error's own). `error` is not changed: a run-wide cancel or timeout error
 * is shared by every block it stopped. Anything that is not a Trellis error becomes an
 * `internal_error` with it as its cause.
 */
export function failureCarrying(error: unknown, remains: FailureRemains): TrellisError {
  if (!isTrellisError(error))
    return new TrellisError("internal_error", error instanceof Error ? error.message : String(error), {
      cause: error,
      ...remains,
    });
  if (!remains.spent && remains.partialOutput === undefined) return error;
  // A copy by descriptors keeps the class (a ProviderCallError stays one, with its provider and status) and the stack.
  const descriptors = { ...Object.getOwnPropertyDescriptors(error), ...remainsDescriptors(remains) };
  return Object.create(Object.getPrototypeOf(error) as object, descriptors) as TrellisError;
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
  constructor(message: string, options: TrellisErrorOptions & { code?: ErrorCode } = {}) {
    super(options.code ?? "block_failed", message, options);
  }
}

/** A model provider call failed (bad key, rate limit, bad answer, broken stream). */
export class ProviderCallError extends TrellisError {
  readonly provider: string;
  readonly status?: number;
  constructor(
    provider: string,
    message: string,
    options: TrellisErrorOptions & { code?: ErrorCode; status?: number } = {},
  ) {
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

export type SandboxErrorCode = Extract<
  ErrorCode,
  "sandbox_timeout" | "sandbox_memory" | "sandbox_output" | "sandbox_error"
>;

/** Sandboxed code hit a limit (time, memory, output size) or threw. */
export class SandboxError extends TrellisError {
  constructor(code: SandboxErrorCode, message: string, remains: FailureRemains = {}) {
    super(code, message, remains);
  }
}

/** The run or a block was cancelled. */
export class CancelledError extends TrellisError {
  constructor(message = "The run was cancelled") {
    super("cancelled", message);
  }
}

/**
 * The abort reason that parks a run instead of cancelling it: it stops to wait for a person and
 * holds nothing meanwhile (the run's AbortSignal is aborted with this).
 */
export class RunParkedError extends TrellisError {
  constructor(readonly park: { reason: "approval"; blockId: string; spanId: string | null; toolCallId?: string }) {
    super("cancelled", `The run stopped to wait for a person (${park.reason})`);
  }
}

/**
 * The abort reason that fails a run from outside its blocks (its events cannot be stored, say):
 * the run ends `failed` with this error rather than `cancelled`.
 */
export class RunStoppedError extends TrellisError {}

/** A model call could have crossed a budget: it was not made, and the run stops (spend-ledger.ts). Never retried. */
export class BudgetExceededError extends RunStoppedError {
  constructor(message: string) {
    super("budget_exceeded", message, { retryable: false });
  }
}

/** A block or run exceeded its time limit. */
export class TimeoutError extends TrellisError {
  constructor(message: string) {
    super("timeout", message, { retryable: true });
  }
}

/** The block's config (after its references were resolved) does not match its type's schema. */
export function invalidConfigError(
  blockName: string,
  issues: ReadonlyArray<IssueDetail>,
  afterReferences: boolean,
): BlockExecutionError {
  const list = issues.map((issue) => (issue.path ? `${issue.path}: ${issue.message}` : issue.message)).join("; ");
  const when = afterReferences ? " after resolving references" : "";
  return new BlockExecutionError(`Block '${blockName}': config is invalid${when}: ${list}`, { code: "invalid_config" });
}

export function errorInfo(error: unknown): { code: ErrorCode; message: string } {
  if (isTrellisError(error)) return { code: error.code, message: error.message };
  if (error instanceof Error) return { code: "internal_error", message: error.message };
  return { code: "internal_error", message: String(error) };
}
