import "server-only";
import { prismaAdapter } from "@better-auth/prisma-adapter";
import { APIError, createAuthMiddleware, isAPIError } from "better-auth/api";
import { betterAuth } from "better-auth/minimal";
import { AsyncLocalStorage } from "node:async_hooks";
import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH, passwordProblem, type SessionUser } from "@/contract";
import { getPrisma, loadSecretKey, resolveDatabaseConfig, WorkspaceRepository, type PrismaClient } from "@/lib/db";
import { createAttemptLimiter } from "./attempt-limiter";
import { addressedRequest, cameOverHttps, CLIENT_ADDRESS_HEADER, signInAccountKey, signInEmail } from "./auth-request";
import { authSecret } from "./auth-secret";
import { endOtherSessionsOnPasswordChange } from "./password-change";
import { addressLimitKey, clientAddressOf, trustedProxiesFromEnvironment, type TrustedProxies } from "./client-address";
import { createRateLimitStorage } from "./rate-limit-storage";
import { recordSignIn } from "./sign-in-audit";
import { signInDevices, tooManyAttempts } from "./sign-in-limits";
import { processLogger } from "@/lib/observability";
import { ssoProviders, type SsoProviderConfig } from "@/lib/sso/sso-providers";
import {
  joinProviderWorkspace,
  oidcAttempt,
  oidcPlugin,
  recordProviderSignIn,
  refuseEmailOutsideDomains,
  type OidcAttempt,
} from "./oidc-sign-in";
import { passwordSignInRefusal } from "./password-sign-in";

/**
 * Users and sessions, with better-auth (its Prisma adapter on the app's database, embedded or
 * PostgreSQL): email and password, sessions in HTTP-only cookies, rate-limited sign-in. Routes
 * are better-auth's standard paths under /api/auth (docs/CONTRACT.md section 7).
 */

export interface AuthOptions {
  prisma: PrismaClient;
  /** Signs the session cookies; see authSecret(). */
  secret: string;
  /**
   * TRELLIS_PUBLIC_URL: the one origin Trellis is served at (its cookies are Secure when it is
   * https). Unset: each request's own origin, with Secure cookies when the request came over https.
   */
  publicUrl?: string;
  /** TRELLIS_TRUSTED_PROXIES: which peers' X-Forwarded-For is believed. Default: the environment's. */
  trustedProxies?: TrustedProxies;
  /** The clock of the limits on password guesses. */
  now?: () => number;
  /** The OpenID providers people may sign in with (lib/sso), read at each sign-in through one of them. */
  sso?: { providers(): Promise<SsoProviderConfig[]> };
}

export const SIGN_UP_CLOSED_MESSAGE =
  "Sign-up is closed: this Trellis already has an owner. Ask an admin to invite you.";

/**
 * Why the user being created may be: `owner`, a public sign-up while no user exists (checked
 * before the request reaches better-auth, so the check needs no query inside its transaction);
 * `trusted`, a server-side call (an invitation, the owner from the environment). Any other user
 * creation is refused.
 */
const creationPermit = new AsyncLocalStorage<"owner" | "trusted">();

/** better-auth's notes on every refused attempt, and one expected without TRELLIS_PUBLIC_URL. */
const QUIET_MESSAGES = [
  "User not found",
  "Invalid password",
  "Password not found",
  "Password is too short",
  "Password is too long",
  "Base URL is not set",
];

/** Paths whose body carries a new password, and the field it is in. */
const NEW_PASSWORD_FIELDS: Record<string, string> = {
  "/sign-up/email": "password",
  "/change-password": "newPassword",
  "/reset-password": "newPassword",
  "/set-password": "newPassword",
};

function betterAuthOptions(
  options: AuthOptions,
  storage: ReturnType<typeof createRateLimitStorage>,
  secureCookies: boolean | undefined,
  providers: readonly SsoProviderConfig[],
) {
  return {
    appName: "Trellis",
    secret: options.secret,
    baseURL: options.publicUrl,
    basePath: "/api/auth",
    // The origin the browser addressed (the handler rebuilds the request from its checked Host),
    // besides TRELLIS_PUBLIC_URL's: better-auth then refuses changes from any other origin.
    trustedOrigins: (request?: Request) => (request ? [new URL(request.url).origin] : []),
    database: prismaAdapter(options.prisma, { provider: "postgresql", transaction: true }),
    emailAndPassword: {
      enabled: true,
      minPasswordLength: PASSWORD_MIN_LENGTH,
      maxPasswordLength: PASSWORD_MAX_LENGTH,
      autoSignIn: true,
    },
    rateLimit: {
      // On in every mode (better-auth's default is production only), counted in the database.
      enabled: true,
      window: 60,
      max: 100,
      customRules: {
        // Password guesses are limited by backoff per address, account and device (sign-in-limits.ts).
        "/sign-in/email": false as const,
        "/sign-up/email": { window: 60, max: 5 },
        // Reading the session guesses nothing; no need to count it.
        "/get-session": false as const,
      },
      customStorage: storage,
    },
    advanced: {
      cookiePrefix: "trellis",
      // The client address the handler found (client-address.ts), never a header the client wrote.
      ipAddress: { ipAddressHeaders: [CLIENT_ADDRESS_HEADER] },
      // better-auth turns its origin and CSRF checks off when NODE_ENV is "test"; keep them on
      // everywhere, so the tests see what production does.
      disableOriginCheck: false,
      disableCSRFCheck: false,
      ...(secureCookies === undefined ? {} : { useSecureCookies: secureCookies }),
    },
    telemetry: { enabled: false },
    plugins: providers.length > 0 ? [oidcPlugin(providers)] : [],
    account: {
      // The tokens a provider answers are kept (better-auth's accounts table) encrypted.
      encryptOAuthTokens: true,
    },
    logger: {
      level: "warn" as const,
      log: (level: string, message: string) => {
        if (QUIET_MESSAGES.some((quiet) => message.includes(quiet))) return;
        processLogger()[level === "error" ? "error" : "warn"]({ component: "auth" }, message);
      },
    },
    // Refusals (wrong password, closed sign-up, rate limit) are answers, not server errors.
    onAPIError: {
      onError: (error: unknown) => {
        if (isAPIError(error) && error.statusCode < 500) return;
        processLogger().error({ component: "auth", err: error }, "the sign-in service failed");
      },
    },
    hooks: {
      before: createAuthMiddleware(async (context) => {
        const field = NEW_PASSWORD_FIELDS[context.path];
        const password = field ? (context.body as Record<string, unknown> | undefined)?.[field] : undefined;
        const problem = typeof password === "string" ? passwordProblem(password) : null;
        if (problem) throw APIError.from("BAD_REQUEST", { code: "PASSWORD_RULE", message: problem });
        return endOtherSessionsOnPasswordChange(context);
      }),
    },
    databaseHooks: {
      user: {
        create: {
          // Public sign-up creates the owner (the first user) and nobody after; later users are
          // created by a trusted server-side call (an invitation).
          before: async (user: { email: string }) => {
            // A person a workspace's provider signs in joins that workspace (just in time), within its domains.
            const attempt = oidcAttempt.getStore();
            if (attempt) return void refuseEmailOutsideDomains(attempt.provider, user.email);
            if (!creationPermit.getStore())
              throw APIError.from("FORBIDDEN", { code: "SIGN_UP_CLOSED", message: SIGN_UP_CLOSED_MESSAGE });
          },
        },
      },
      session: {
        create: {
          // Before a provider's sign-in gets its session: the email it vouches for now, and the membership.
          before: async (session: { userId: string }) => {
            const attempt = oidcAttempt.getStore();
            if (!attempt) return;
            const user = await options.prisma.user.findUniqueOrThrow({
              where: { id: session.userId },
              select: { id: true, name: true, email: true },
            });
            refuseEmailOutsideDomains(attempt.provider, attempt.email ?? user.email);
            await joinProviderWorkspace(options.prisma, attempt, user);
            attempt.userId = user.id;
          },
        },
      },
    },
  };
}

function createBetterAuth(
  options: AuthOptions,
  storage: ReturnType<typeof createRateLimitStorage>,
  secureCookies: boolean | undefined,
  providers: readonly SsoProviderConfig[] = [],
) {
  return betterAuth(betterAuthOptions(options, storage, secureCookies, providers));
}

type BetterAuthInstance = ReturnType<typeof createBetterAuth>;

async function hasUsers(prisma: PrismaClient): Promise<boolean> {
  return (await prisma.user.findFirst({ select: { id: true } })) !== null;
}

/**
 * The owner (the first user) gets the first workspace, adopting one the workspaces migration
 * filled with data from before accounts existed. Idempotent, and run after better-auth's own
 * transaction has committed the user.
 */
async function settleOwner(prisma: PrismaClient): Promise<void> {
  const owner = await prisma.user.findFirst({ orderBy: [{ createdAt: "asc" }, { id: "asc" }], select: { id: true } });
  if (owner) await new WorkspaceRepository(prisma).ensureFirstWorkspace(owner.id);
}

export interface NewUser {
  name: string;
  email: string;
  password: string;
}

export interface TrellisAuth {
  /**
   * Answers a request to /api/auth/* (better-auth's handler), told the client's real address;
   * sign-in guesses are limited here first (sign-in-limits.ts).
   */
  handler(request: Request): Promise<Response>;
  /** The user of the session the request headers carry (cookie), or null. */
  session(headers: Headers): Promise<SessionUser | null>;
  /** Whether the owner (the first user) exists. */
  ownerExists(): Promise<boolean>;
  /**
   * Creates a user with a password, past the closed sign-up (for invitations and the owner from
   * the environment). Refuses a password outside the rules and an email already taken with
   * better-auth's APIError (400 or 422). Signs nobody in. The first user becomes the owner of the
   * first workspace; later users join workspaces by invitation.
   */
  createUser(user: NewUser): Promise<SessionUser>;
}

/** better-auth's own 429 says when in X-Retry-After only; HTTP clients read Retry-After. */
function withRetryAfter(response: Response): Response {
  const wait = response.headers.get("x-retry-after");
  if (response.status === 429 && wait && !response.headers.has("retry-after"))
    response.headers.set("retry-after", wait);
  return response;
}

const SECURE_SESSION_COOKIE = "__Secure-trellis.session_token=";

/** One user creation at a time in this process, so two first visitors cannot both become owner. */
function serializer() {
  let tail: Promise<unknown> = Promise.resolve();
  return <T>(work: () => Promise<T>): Promise<T> => {
    const result = tail.then(work, work);
    tail = result.catch(() => undefined);
    return result;
  };
}

export function createAuth(options: AuthOptions): TrellisAuth {
  const storage = createRateLimitStorage(options.prisma);
  const attempts = createAttemptLimiter(options.prisma, options.now);
  const devices = signInDevices(options.secret);
  const instances = new Map<string, BetterAuthInstance>();
  const instance = (secure: boolean): BetterAuthInstance => {
    // With a public URL better-auth knows the scheme; otherwise one instance per scheme, since
    // a Secure cookie set over plain http (a LAN address) would be dropped by the browser.
    const key = options.publicUrl ? "public" : secure ? "https" : "http";
    let found = instances.get(key);
    if (!found) {
      found = createBetterAuth(options, storage, options.publicUrl ? undefined : secure);
      instances.set(key, found);
    }
    return found;
  };
  const creating = serializer();
  // better-auth reads its providers when it starts: an instance per scheme and set of providers,
  // the set read again (one small query) at each sign-in through a provider, so a provider saved
  // in Settings on any process serves the next sign-in, with no restart.
  const withProviders = new Map<string, { revision: string; auth: BetterAuthInstance }>();
  const instanceFor = (secure: boolean, providers: readonly SsoProviderConfig[]): BetterAuthInstance => {
    if (providers.length === 0) return instance(secure);
    const key = options.publicUrl ? "public" : secure ? "https" : "http";
    const revision = JSON.stringify(
      providers.map((provider) => [provider.providerId, provider.updatedAt, provider.issuer]),
    );
    const found = withProviders.get(key);
    if (found?.revision === revision) return found.auth;
    const auth = createBetterAuth(options, storage, options.publicUrl ? undefined : secure, providers);
    withProviders.set(key, { revision, auth });
    return auth;
  };
  const providerPath = /\/(sign-in\/social|callback\/([^/]+))$/;

  return {
    async handler(incoming) {
      const address = clientAddressOf(incoming, options.trustedProxies ?? trustedProxiesFromEnvironment());
      const { request, body } = await addressedRequest(incoming, address);
      const path = new URL(request.url).pathname;
      const viaProvider = providerPath.exec(path);
      if (viaProvider) {
        const providers = (await options.sso?.providers()) ?? [];
        const auth = instanceFor(cameOverHttps(request), providers);
        const provider = viaProvider[2]
          ? providers.find((candidate) => candidate.providerId === viaProvider[2])
          : undefined;
        if (!provider) return withRetryAfter(await auth.handler(request));
        const attempt: OidcAttempt = { provider, address };
        const response = await oidcAttempt.run(attempt, () => auth.handler(request));
        await recordProviderSignIn(options.prisma, attempt);
        return response;
      }
      const auth = instance(cameOverHttps(request));
      if (request.method === "POST" && path.endsWith("/sign-in/email")) {
        const accountKey = signInAccountKey(request.headers.get("content-type"), body);
        const keys = devices.keysFor(request, addressLimitKey(address), accountKey);
        const decision = await attempts.attempt(keys);
        if (!decision.allowed) return tooManyAttempts(decision.retryAfterS);
        const response = await auth.handler(request);
        // Only a wrong password is a failed guess; any other answer checked none.
        if (response.status !== 401) await attempts.succeeded(decision.ticket);
        const email = signInEmail(request.headers.get("content-type"), body);
        // Checked after the password, so the answer tells a stranger nothing about who is a member where.
        const refusal = response.ok ? await passwordSignInRefusal(options, email) : null;
        if (refusal) {
          const { token } = (await response.clone().json()) as { token: string };
          await (await auth.$context).internalAdapter.deleteSession(token);
          return refusal;
        }
        if (email && (response.ok || response.status === 401))
          await recordSignIn(options.prisma, { email, address, succeeded: response.ok, method: "password" });
        if (response.ok && accountKey)
          response.headers.append("set-cookie", devices.cookieFor(request, accountKey, cameOverHttps(request)));
        return response;
      }
      const isSignUp = request.method === "POST" && path.endsWith("/sign-up/email");
      const run = async () => withRetryAfter(await auth.handler(request));
      return isSignUp
        ? await creating(async () => {
            if (await hasUsers(options.prisma)) return run();
            const answer = await creationPermit.run("owner", run);
            if (answer.ok) await settleOwner(options.prisma);
            return answer;
          })
        : await run();
    },

    async session(headers) {
      const secure = (headers.get("cookie") ?? "").includes(SECURE_SESSION_COOKIE);
      const found = await instance(secure).api.getSession({ headers });
      return found ? { userId: found.user.id, email: found.user.email, name: found.user.name } : null;
    },

    ownerExists: () => hasUsers(options.prisma),

    createUser(user) {
      return creating(() =>
        creationPermit.run("trusted", async () => {
          const auth = instance(false);
          const created = await auth.api.signUpEmail({
            body: { name: user.name, email: user.email, password: user.password },
          });
          // Sign-up signs the new user in; a server-side creation leaves no session behind.
          if (created.token) await (await auth.$context).internalAdapter.deleteSession(created.token);
          await settleOwner(options.prisma);
          return { userId: created.user.id, email: created.user.email, name: created.user.name };
        }),
      );
    },
  };
}

const cache = new WeakMap<PrismaClient, TrellisAuth>();

/** The app's auth over getPrisma(), its secret from authSecret() and TRELLIS_PUBLIC_URL. */
export function getAuth(): TrellisAuth {
  const prisma = getPrisma();
  let auth = cache.get(prisma);
  if (!auth) {
    const publicUrl = process.env.TRELLIS_PUBLIC_URL?.trim();
    const providers = ssoProviders(
      prisma,
      () => loadSecretKey({ env: process.env, dataDir: resolveDatabaseConfig().dataDir }),
      process.env,
    );
    auth = createAuth({
      prisma,
      secret: authSecret(),
      ...(publicUrl ? { publicUrl } : {}),
      sso: { providers: () => providers.all() },
    });
    cache.set(prisma, auth);
  }
  return auth;
}
