import { ApiError } from "@/contract";

/** What the auth forms say about a failed call: the server's words, clearer ones for the usual refusals. */
export function messageOf(failure: unknown, fallback: string): string {
  if (failure instanceof ApiError) {
    if (failure.status === 401) return "Invalid email or password.";
    // The server's 429 names the wait (from its Retry-After); a proxy's bare 429 does not.
    if (failure.status === 429)
      return failure.code === "http_error" ? "Too many attempts. Wait a little, then try again." : failure.message;
    return failure.message;
  }
  return `${fallback}: the server could not be reached.`;
}
