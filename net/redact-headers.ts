/**
 * Header values that must never reach a trace, a log or an error: credentials by name, and any
 * value the caller knows came from a secret (`{{NAME}}`).
 */

export const REDACTED = "[redacted]";

const CREDENTIAL_HEADER =
  /^(authorization|proxy-authorization|cookie|set-cookie)$|api[-_]?key|token|secret|password|passwd|session|credential|signature|auth/i;

export function isCredentialHeader(name: string): boolean {
  return CREDENTIAL_HEADER.test(name);
}

/**
 * A copy of `headers` safe to record. `fromSecret` names headers whose value was filled from a
 * `{{SECRET}}` reference, whatever they are called.
 */
export function redactHeaders(
  headers: Readonly<Record<string, string>> | undefined,
  fromSecret: ReadonlySet<string> = new Set(),
): Record<string, string> | undefined {
  if (!headers) return headers;
  const lowerSecret = new Set([...fromSecret].map((name) => name.toLowerCase()));
  return Object.fromEntries(
    Object.entries(headers).map(([name, value]) => [
      name,
      isCredentialHeader(name) || lowerSecret.has(name.toLowerCase()) ? REDACTED : value,
    ]),
  );
}
