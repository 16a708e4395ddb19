import { API_KEY_PREFIX } from "../api-keys";
import { PAGE_LIMIT_DEFAULT, PAGE_LIMIT_MAX } from "../pagination";
import { WORKSPACE_COOKIE, WORKSPACE_HEADER } from "../workspaces";
import type { ErrorStatus } from "./operation";

/** The words of the OpenAPI document: what a reader needs before the operations. */

export const API_DESCRIPTION = `The REST API of Trellis (docs/CONTRACT.md section 5). JSON in and out.

**Credentials.** Every route needs a session or an API key and answers 401 without, except the public ones marked here. Scripts send a key as \`Authorization: Bearer ${API_KEY_PREFIX}…\` (make one under API keys in the user menu); the browser sends the session cookie. Signing in, out and up are better-auth's own routes under \`/api/auth/*\` (\`POST /api/auth/sign-in/email\` with \`{ email, password }\`, \`POST /api/auth/sign-out\`, \`GET /api/auth/get-session\`) and are not described here; the invitation routes under \`/api/auth/invitations\` are.

**Workspaces.** Everything stored belongs to a workspace, in which the caller acts with a role (owner, admin, editor, viewer). An API key acts in the workspace it was made in. A session acts in the workspace named by the \`${WORKSPACE_HEADER}\` header, else the \`${WORKSPACE_COOKIE}\` cookie, else its first; routes under \`/api/workspaces/{workspaceId}\` act in that one. A workspace the caller is not in answers 404, like an unknown id.

**Lists** are paged: \`?limit=\` (default ${PAGE_LIMIT_DEFAULT}, at most ${PAGE_LIMIT_MAX}) and \`?cursor=\` (the previous page's \`nextCursor\`, unchanged); the items come under the list's key with \`nextCursor\`, null on the last page.

**Errors** answer \`{ "error": { "code", "message", "details"? } }\`. Before any route's own work, a Host the server does not answer to is refused with 421, a change sent from another site with 403 and a body of another media type with 415.`;

/** `components.responses`: one per error status, each with the contract's error body. */
export const ERROR_RESPONSES: Record<ErrorStatus, { name: string; description: string }> = {
  400: {
    name: "BadRequest",
    description:
      "Invalid: a body that is not JSON or nests too deep (`invalid_json`), a field or query parameter that breaks its rule (`invalid_request`), a workflow that breaks the graph rules (`invalid_workflow`).",
  },
  401: {
    name: "Unauthenticated",
    description: "No session or API key, or a key that is unknown, revoked or expired (`unauthenticated`).",
  },
  402: {
    name: "BudgetReached",
    description:
      "The workspace's monthly budget would be crossed by the request's model calls (`budget_reached`): nothing was sent to the model.",
  },
  403: {
    name: "Forbidden",
    description:
      "The caller's role here cannot do this, or the caller is in no workspace (`forbidden`); or a change sent from another site (`cross_site_request`).",
  },
  404: {
    name: "NotFound",
    description: "No such id in the workspace the caller acts in, or a workspace the caller is not in (`not_found`).",
  },
  409: {
    name: "Conflict",
    description:
      "The change contradicts what is stored: a stale `version` (`version_conflict`), an existing member or account, the last owner (`conflict`).",
  },
  413: {
    name: "TooLarge",
    description: "The body, a file or a list in it is over its limit (`too_large`), named in the message.",
  },
  415: {
    name: "UnsupportedMediaType",
    description:
      "A body of another media type than the endpoint takes (`unsupported_media_type`), or an uploaded file of a type that is not supported (`unsupported_file_type`).",
  },
  429: {
    name: "TooManyAttempts",
    description:
      "Too many wrong passwords (`too_many_attempts`): the next guess is not checked until the wait in the `Retry-After` header (and `retryAfter` in the error) has passed.",
  },
  421: {
    name: "HostNotAllowed",
    description:
      "The Host header names a site this server does not answer to (`host_not_allowed`): set TRELLIS_PUBLIC_URL or TRELLIS_ALLOWED_HOSTS.",
  },
  500: {
    name: "InternalError",
    description: "A failure on the server (`internal_error` and others); the message says nothing of its internals.",
  },
  502: {
    name: "UpstreamFailed",
    description:
      "A service behind the server failed: a model provider or embedder, an MCP server (`provider_error`, `mcp_unavailable`, …).",
  },
};

export const SECURITY_SCHEMES = {
  apiKey: {
    type: "http",
    scheme: "bearer",
    bearerFormat: `${API_KEY_PREFIX}…`,
    description:
      "An API key: acts in the workspace it was made in, with its maker's role there. Only its SHA-256 hash is stored.",
  },
  // better-auth's cookie with the prefix lib/auth/auth.ts sets; `__Secure-trellis.session_token` when served over https.
  session: {
    type: "apiKey",
    in: "cookie",
    name: "trellis.session_token",
    description: "The session cookie set by `POST /api/auth/sign-in/email` (HTTP-only, 7 days).",
  },
} as const;

/** The header that names the workspace a session acts in, shared by the member operations. */
export const WORKSPACE_PARAMETER = {
  name: WORKSPACE_HEADER,
  in: "header",
  required: false,
  description: `The workspace to act in. A session without it acts in the workspace of the \`${WORKSPACE_COOKIE}\` cookie, else its first; an API key always acts in its own (another answers 404).`,
  schema: { type: "string" },
} as const;
