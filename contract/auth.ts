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
  if (password.length < PASSWORD_MIN_LENGTH)
    return `The password is too short: use at least ${PASSWORD_MIN_LENGTH} characters.`;
  if (password.length > PASSWORD_MAX_LENGTH)
    return `The password is too long: use at most ${PASSWORD_MAX_LENGTH} characters.`;
  return null;
}

/**
 * Where to go after signing in (`?next=`): a path on this site, else the home page. Refuses
 * `//host` and `/\\host` (other sites) and anything that is not a path.
 */
export function safeReturnPath(value: string | undefined | null): string {
  if (
    !value ||
    !value.startsWith("/") ||
    value.startsWith("//") ||
    value.startsWith("/\\") ||
    /[\u0000-\u001f]/.test(value)
  )
    return "/";
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
