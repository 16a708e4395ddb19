import {
  APICallError,
  InvalidResponseDataError,
  JSONParseError,
  LoadAPIKeyError,
  TypeValidationError,
} from "@ai-sdk/provider";
import { CancelledError, ProviderCallError, TimeoutError, TrellisError } from "@/core";
import { PROVIDERS, type ProviderId } from "./provider-table";

/**
 * Turns whatever a provider call threw into a Trellis error with a code, a retryable flag and a
 * message that names the provider and what to do, with secrets scrubbed.
 */

/** A stream that broke after some text arrived: the partial text is kept for the block's output. */
export class StreamInterruptedError extends ProviderCallError {
  readonly partialText: string;
  constructor(provider: string, message: string, partialText: string) {
    super(provider, message, { code: "stream_interrupted", retryable: true, partialOutput: { content: partialText } });
    this.partialText = partialText;
  }
}

/** The model did not answer the JSON asked for; its whole answer is kept, for a repair prompt. */
export class StructuredOutputError extends ProviderCallError {
  readonly answerText: string;
  constructor(provider: string, message: string, answerText: string, cause: unknown) {
    super(provider, message, { code: "invalid_structured_output", cause });
    this.answerText = answerText;
  }
}

export interface ErrorScope {
  provider: ProviderId;
  modelId: string;
  /** Secret values to scrub from any message. */
  secrets: string[];
}

const KEY_PATTERN = /\b(sk|key|AIza)[-_A-Za-z0-9]{12,}/g;

export function scrub(text: string, secrets: string[]): string {
  let clean = text;
  for (const secret of secrets) if (secret.length >= 4) clean = clean.split(secret).join("[redacted]");
  return clean.replace(KEY_PATTERN, "[redacted]").slice(0, 500);
}

/** The longest part of a provider's own error message a run error quotes. */
export const MAX_PROVIDER_MESSAGE_CHARS = 500;

/**
 * What a failed call's answer may add to the run's error: the provider's own error message, when
 * the answer had the provider's error shape (`{error:{message}}` and the like, which the AI SDK
 * parsed into `data`), scrubbed and cut to 500 characters. Anything else the server answered (an
 * HTML page, a metadata document, another service's JSON) is not quoted: the request's target may
 * not be the provider, and its body is none of the user's business.
 */
function providerMessage(error: APICallError, secrets: string[]): string {
  if (error.data === undefined || error.data === null) return "its answer was not a provider error, so it is not shown";
  return scrub(error.message, secrets).slice(0, MAX_PROVIDER_MESSAGE_CHARS);
}

/** The AI SDK could not read a successful answer: these errors quote the answer, so none of them is shown. */
export function isUnreadableAnswer(error: unknown): boolean {
  return (
    TypeValidationError.isInstance(error) ||
    JSONParseError.isInstance(error) ||
    InvalidResponseDataError.isInstance(error)
  );
}

export function missingKeyError(provider: ProviderId): ProviderCallError {
  const settings = PROVIDERS[provider];
  return new ProviderCallError(
    provider,
    `${settings.label} needs an API key: set ${settings.apiKeyVariable} in Settings › Model providers (kept as a workspace secret) or in the server's environment`,
    {
      code: "missing_api_key",
    },
  );
}

export function toTrellisError(error: unknown, scope: ErrorScope): TrellisError {
  if (error instanceof TrellisError) return error;
  const settings = PROVIDERS[scope.provider];
  const label = settings.label;
  if (LoadAPIKeyError.isInstance(error)) return missingKeyError(scope.provider);
  if (APICallError.isInstance(error)) {
    const status = error.statusCode;
    if (status === undefined) {
      // No answer at all (refused connection, DNS): the message is the local network error's.
      const where = settings.baseUrlVariable ? ` (check ${settings.baseUrlVariable})` : "";
      return new ProviderCallError(
        scope.provider,
        `Cannot reach ${label}${where}: ${scrub(error.message, scope.secrets)}`,
        {
          code: "provider_unreachable",
          retryable: true,
        },
      );
    }
    const detail = providerMessage(error, scope.secrets);
    if (status === 401 || status === 403) {
      const variable = settings.apiKeyVariable ? `: check ${settings.apiKeyVariable}` : "";
      return new ProviderCallError(
        scope.provider,
        `${label} rejected the API key (HTTP ${status})${variable}. ${detail}`,
        {
          code: "invalid_api_key",
          status,
        },
      );
    }
    if (status === 429) {
      return new ProviderCallError(
        scope.provider,
        `${label} rate limit hit for ${scope.modelId} (HTTP 429) and retries ran out. ${detail}`,
        {
          code: "rate_limited",
          status,
          retryable: true,
        },
      );
    }
    if (status === 404) {
      return new ProviderCallError(
        scope.provider,
        `${label} does not know model ${scope.modelId} (HTTP 404). ${detail}`,
        {
          code: "model_not_found",
          status,
        },
      );
    }
    return new ProviderCallError(
      scope.provider,
      `${label} call for ${scope.modelId} failed (HTTP ${status}). ${detail}`,
      {
        code: status >= 500 ? "provider_unavailable" : "provider_error",
        status,
        retryable: error.isRetryable,
      },
    );
  }
  if (isUnreadableAnswer(error)) {
    return new ProviderCallError(
      scope.provider,
      `${label} answered ${scope.modelId} in a form that is not its API's, so the answer is not shown`,
      {
        code: "invalid_response",
      },
    );
  }
  const message = error instanceof Error ? error.message : String(error);
  return new ProviderCallError(
    scope.provider,
    `${label} call for ${scope.modelId} failed: ${scrub(message, scope.secrets)}`,
  );
}

/** The error for an aborted call: a cancelled run, or the call's own time limit. */
export function abortError(
  signal: { cancelled: boolean; timedOut: boolean },
  scope: ErrorScope,
  timeoutMs: number,
): TrellisError {
  if (signal.timedOut && !signal.cancelled) {
    return new TimeoutError(
      `${PROVIDERS[scope.provider].label} call for ${scope.modelId} timed out after ${Math.round(timeoutMs / 1000)} s`,
    );
  }
  return new CancelledError();
}
