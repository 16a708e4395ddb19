import type { z } from "zod";
import type { ErrorBody, IssueDetail } from "./errors";
import {
  fillPath,
  operationById,
  type ApiOperation,
  type OperationById,
  type OperationId,
  type PathParams,
} from "./openapi";

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
  if (error)
    return new ApiError(
      status,
      error.code ?? "http_error",
      error.message ?? `The server answered ${status}.`,
      error.details ?? [],
      body,
    );
  const code = typeof body?.code === "string" ? body.code : "http_error";
  const message = typeof body?.message === "string" && body.message ? body.message : `The server answered ${status}.`;
  return new ApiError(status, code, message, [], body ?? undefined);
}

type Operation<Id extends OperationId> = OperationById<Id>;
type AnswerAt<Id extends OperationId, Status> = Extract<Operation<Id>["answers"][number], { status: Status }>;
/** What an answer's body is: its schema's output, nothing for an answer without one (204, a stream). */
type BodyOf<Answer> = Answer extends { schema: infer Schema extends z.ZodType } ? z.output<Schema> : void;

/** The statuses an operation answers on success. */
export type AnswerStatus<Id extends OperationId> = Operation<Id>["answers"][number]["status"];
/** The parsed body of an operation's answer: with `Status`, that answer's; otherwise any of them. */
export type AnswerOf<Id extends OperationId, Status extends number = AnswerStatus<Id>> = BodyOf<AnswerAt<Id, Status>>;
/** The body an operation takes, as its request schema accepts it. */
export type BodyInput<Id extends OperationId> =
  Operation<Id> extends { request: { schema: infer Schema extends z.ZodType } } ? z.input<Schema> : never;

/** How to call an operation: its path's params (when it has any), a query, a body, and the success status expected. */
export type CallInput<Id extends OperationId, Status extends number = AnswerStatus<Id>> = (keyof PathParams<
  Operation<Id>["path"]
> extends never
  ? { params?: undefined }
  : { params: PathParams<Operation<Id>["path"]> }) & {
  query?: Record<string, string>;
  body?: BodyInput<Id>;
  /** The one success status wanted: another is an error, and the answer is typed as this one's. */
  status?: Status;
  init?: RequestInit;
};

export interface ApiClientOptions {
  /** Prefix of every path; empty in the browser (same origin). */
  baseUrl?: string;
  fetch?: typeof globalThis.fetch;
  headers?: Record<string, string>;
}

/** `?a=1&b=2`, or nothing for no entries. */
export function queryString(query: Record<string, string> = {}): string {
  const text = new URLSearchParams(query).toString();
  return text ? `?${text}` : "";
}

/** Parses a body with the schemas declared for its status, in order (a status may have two shapes: chat settings, or none yet). */
function parseAnswer(status: number, text: string, schemas: z.ZodType[], where: string): unknown {
  if (schemas.length === 0) return undefined;
  let body: unknown;
  try {
    body = text ? JSON.parse(text) : undefined;
  } catch {
    throw new ApiError(status, "invalid_answer", `${where} answered ${status} with a body that is not JSON.`);
  }
  let first: z.ZodError | undefined;
  for (const schema of schemas) {
    const parsed = schema.safeParse(body);
    if (parsed.success) return parsed.data;
    first ??= parsed.error;
  }
  const issue = first?.issues[0];
  const at = issue?.path.length ? ` at ${issue.path.join(".")}` : "";
  throw new ApiError(
    status,
    "invalid_answer",
    `${where} answered ${status} with a body its description does not allow${at}: ${issue?.message ?? "unknown shape"}.`,
  );
}

/** What the implementation of `call` reads of its input, whatever the operation. */
interface UntypedInput {
  params?: Record<string, string>;
  query?: Record<string, string>;
  body?: unknown;
  status?: number;
  init?: RequestInit;
}

/**
 * Calls a declared operation (contract/openapi) by its id: the method and path come from its
 * declaration, and the answer is parsed with the schema declared for the status it came with, so
 * what the caller gets has the type it is declared with, or the call fails saying where it differs.
 */
export function operationCaller(options: ApiClientOptions = {}) {
  const baseUrl = options.baseUrl ?? "";
  function url<Id extends OperationId>(
    id: Id,
    params: PathParams<Operation<Id>["path"]>,
    query?: Record<string, string>,
  ): string {
    return `${baseUrl}${fillPath(operationById(id), params as Record<string, string>)}${queryString(query)}`;
  }
  function call<Id extends OperationId, Status extends AnswerStatus<Id> = AnswerStatus<Id>>(
    id: Id,
    input: CallInput<Id, Status>,
  ): Promise<AnswerOf<Id, Status>>;
  async function call(id: OperationId, input: UntypedInput): Promise<unknown> {
    const operation: ApiOperation = operationById(id);
    const path = `${fillPath(operation, input.params ?? {})}${queryString(input.query)}`;
    const fetcher = options.fetch ?? globalThis.fetch;
    const response = await fetcher(`${baseUrl}${path}`, {
      method: operation.method,
      ...input.init,
      headers: { "content-type": "application/json", ...options.headers, ...(input.init?.headers ?? {}) },
      ...(input.body === undefined ? {} : { body: JSON.stringify(input.body) }),
    });
    const text = await response.text();
    if (!response.ok) throw apiErrorFrom(response.status, text);
    const where = `${operation.method} ${operation.path}`;
    if (input.status !== undefined && response.status !== input.status) {
      throw new ApiError(
        response.status,
        "unexpected_answer",
        `${where} answered ${response.status}, not the ${input.status} asked for.`,
      );
    }
    const answers = operation.answers.filter((answer) => answer.status === response.status);
    const schemas = answers.flatMap((answer) =>
      (answer.contentType ?? "application/json") === "application/json" && answer.schema ? [answer.schema] : [],
    );
    return parseAnswer(response.status, text, schemas, where);
  }
  return { url, call };
}

export type OperationCaller = ReturnType<typeof operationCaller>;
