import { ApiError } from "@/contract";

/** What the auth forms say about a failed call: the server's words, clearer ones for the usual refusals. */
export function messageOf(failure: unknown, fallback: string): string {
  if (failure instanceof ApiError) {
    if (failure.status === 401) return "Invalid email or password.";
    if (failure.status === 429) return "Too many attempts. Wait a minute, then try again.";
    return failure.message;
  }
  return `${fallback}: the server could not be reached.`;
}
