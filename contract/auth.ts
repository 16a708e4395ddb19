/**
 * Users and sessions on the wire (docs/CONTRACT.md section 7): the password rules both the forms
 * and the server apply, and the calls the browser makes to better-auth's routes under /api/auth.
 */

export const PASSWORD_MIN_LENGTH = 10;
export const PASSWORD_MAX_LENGTH = 128;
/** The rule as the forms state it. */
export const PASSWORD_RULE = `Passwords are ${PASSWORD_MIN_LENGTH} to ${PASSWORD_MAX_LENGTH} characters long.`;

/** What is wrong with a new password, in words naming the rule, or null when it is acceptable. */
export function passwordProblem(password: string): string | null {
  if (password.length < PASSWORD_MIN_LENGTH) return `The password is too short: use at least ${PASSWORD_MIN_LENGTH} characters.`;
  if (password.length > PASSWORD_MAX_LENGTH) return `The password is too long: use at most ${PASSWORD_MAX_LENGTH} characters.`;
  return null;
}

/**
 * Where to go after signing in (`?next=`): a path on this site, else the home page. Refuses
 * `//host` and `/\\host` (other sites) and anything that is not a path.
 */
export function safeReturnPath(value: string | undefined | null): string {
  if (!value || !value.startsWith("/") || value.startsWith("//") || value.startsWith("/\\") || /[\u0000-\u001f]/.test(value)) return "/";
  return value;
}

/** The signed-in user as the app sees it. */
export interface SessionUser {
  userId: string;
  email: string;
  name: string;
}

/** POST /api/auth/sign-in/email */
export interface SignInRequest {
  email: string;
  password: string;
}

/** POST /api/auth/sign-up/email (the owner, on first start) */
export interface SignUpRequest {
  name: string;
  email: string;
  password: string;
}

/** An answer of an auth route that was not a success: better-auth's `{ code, message }` body. */
export class AuthError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
    this.name = "AuthError";
  }
}

const FALLBACK_MESSAGES: Record<number, string> = {
  401: "Invalid email or password.",
  403: "This is not allowed.",
  429: "Too many attempts. Wait a minute and try again.",
};

async function authCall<T>(path: string, body: unknown, fetcher: typeof globalThis.fetch): Promise<T> {
  const response = await fetcher(`/api/auth${path}`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
    credentials: "same-origin",
  });
  const text = await response.text();
  let parsed: { code?: unknown; message?: unknown } | null = null;
  try {
    parsed = text ? (JSON.parse(text) as { code?: unknown; message?: unknown }) : null;
  } catch {
    // Not JSON (a proxy's page): the status speaks.
  }
  if (!response.ok) {
    const message =
      typeof parsed?.message === "string" && parsed.message
        ? parsed.message
        : (FALLBACK_MESSAGES[response.status] ?? `The server answered ${response.status}.`);
    throw new AuthError(response.status, typeof parsed?.code === "string" ? parsed.code : "http_error", message);
  }
  return parsed as T;
}

/** The browser's calls to the auth routes (same origin; the session travels in an HTTP-only cookie). */
export function createAuthClient(fetcher: typeof globalThis.fetch = (...args) => globalThis.fetch(...args)) {
  return {
    signIn: (request: SignInRequest) => authCall<{ user: { id: string; email: string; name: string } }>("/sign-in/email", request, fetcher),
    /** Creates the owner on first start; refused (403) once a user exists. */
    signUp: (request: SignUpRequest) => authCall<{ user: { id: string; email: string; name: string } }>("/sign-up/email", request, fetcher),
    signOut: () => authCall<{ success: boolean }>("/sign-out", {}, fetcher),
    /** The signed-in user, or null. */
    session: async (): Promise<SessionUser | null> => {
      const response = await fetcher("/api/auth/get-session", { credentials: "same-origin", cache: "no-store" });
      if (!response.ok) throw new AuthError(response.status, "http_error", `The server answered ${response.status}.`);
      const body = (await response.json()) as { user?: { id: string; email: string; name: string } } | null;
      return body?.user ? { userId: body.user.id, email: body.user.email, name: body.user.name } : null;
    },
  };
}

/** The browser's auth client. */
export const authApi = createAuthClient();
