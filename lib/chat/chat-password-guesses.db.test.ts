import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  createAttemptLimiter,
  createAuth,
  createUserByInvitation,
  parseTrustedProxies,
  stampPeerAddresses,
} from "@/lib/auth";
import { testMember } from "@/lib/http/test-members";
import { serveRoute, type RouteServer } from "@/lib/mcp/__fixtures__/route-server";
import { startRunTestKit, type RunTestKit } from "@/lib/runs/__fixtures__/run-test-kit";
import { chatAccessTokens } from "./chat-access";
import { chatEndpoints, chatSettingsEndpoints, type ChatSettingsEndpoints } from "./chat-endpoints";
import { CHAT_PASSWORD_RULES, chatPasswordGuesses } from "./chat-password-guesses";
import { ChatRepository } from "./chat-repository";
import { createChatService } from "./chat-service";
import { createChatSettings } from "./chat-settings";
import { auditRequestsTo } from "@/lib/audit";

/**
 * Guesses at a public chat's password over real HTTP on loopback (the server stamps each request
 * with its socket's address, as the app's does), counted in the test database. The loopback peer
 * is a trusted proxy here, so X-Forwarded-For plays the visitors' addresses. A clock the test
 * moves stands in for the waits.
 */

const PASSWORD = "a long chat password";
const clock = { now: Date.now() };
let kit: RunTestKit;
let settings: ChatSettingsEndpoints;
let workspaceId: string;
let server: RouteServer;
let chatId = "";

beforeAll(async () => {
  stampPeerAddresses();
  kit = await startRunTestKit();
  workspaceId = await kit.database.createWorkspace();
  const chats = new ChatRepository(kit.database.prisma);
  settings = chatSettingsEndpoints(
    () => createChatSettings(chats, kit.database.repositories),
    auditRequestsTo(() => kit.database.prisma),
  );
  const key = randomBytes(32);
  const chat = chatEndpoints(() =>
    createChatService({
      chats,
      repositories: kit.database.repositories,
      runs: kit.runtime.runs,
      access: chatAccessTokens(() => key),
      passwordGuesses: chatPasswordGuesses(
        createAttemptLimiter(kit.database.prisma, () => clock.now),
        () => parseTrustedProxies("127.0.0.1"),
      ),
      signedIn: async () => null,
    }),
  );
  server = await serveRoute({ POST: (request) => chat.unlock(request, { chatId }) });
});

afterAll(async () => {
  await server?.close();
  await kit?.close();
});

const saveSettings = (workflowId: string, body: Record<string, unknown>) =>
  settings.save(
    new Request(`http://localhost/api/workflows/${workflowId}/chat`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(body),
    }),
    { id: workflowId },
    testMember(workspaceId, "editor"),
  );

async function chatWithPassword(): Promise<string> {
  const document = {
    name: "Guarded chat",
    blocks: [
      {
        id: "start",
        type: "start",
        name: "Start",
        position: { x: 0, y: 0 },
        config: { inputs: [{ name: "message", type: "string" }] },
      },
    ],
    edges: [],
  };
  const { id } = await kit.database.repositories.workflows.create(workspaceId, document as never);
  const response = await saveSettings(id, { enabled: true, password: PASSWORD });
  expect(response.status).toBe(200);
  return ((await response.json()) as { chatId: string }).chatId;
}

/** One browser: its visitor cookie kept, at one address. */
function visitor(address: string) {
  let cookie = "";
  return async (password: string): Promise<Response> => {
    const response = await fetch(`${server.origin}/api/chat/${chatId}/access`, {
      method: "POST",
      headers: { "content-type": "application/json", "x-forwarded-for": address, ...(cookie ? { cookie } : {}) },
      body: JSON.stringify({ password }),
    });
    const set = response.headers.getSetCookie().find((line) => line.startsWith("trellis-chat-visitor="));
    if (set) cookie = set.split(";")[0]!;
    return response;
  };
}

const waitOut = (response: Response) => {
  clock.now += Number(response.headers.get("retry-after")) * 1000;
};

async function errorOf(response: Response): Promise<{ code: string; message: string; retryAfter?: number }> {
  return ((await response.json()) as { error: { code: string; message: string; retryAfter?: number } }).error;
}

describe("a chat's password", () => {
  it("must be at least 10 characters: 400 naming the field and the minimum", async () => {
    const { id } = await kit.database.repositories.workflows.create(workspaceId, {
      name: "Short",
      blocks: [],
      edges: [],
    } as never);
    const refused = await saveSettings(id, { enabled: true, password: "123456789" });
    expect(refused.status).toBe(400);
    const body = JSON.stringify(await refused.json());
    expect(body).toContain('"path":"password"');
    expect(body).toContain("must be at least 10 characters");
    expect((await saveSettings(id, { enabled: true, password: "1234567890" })).status).toBe(200);
  });

  it("answers 429 with Retry-After to the 301st wrong guess of one visitor, and the right password after the wait", async () => {
    chatId = await chatWithPassword();
    const guess = visitor("203.0.113.10");
    const statuses: number[] = [];
    let last: Response | undefined;
    for (let attempt = 0; attempt < 301; attempt += 1) {
      last = await guess(`wrong guess ${attempt}`);
      statuses.push(last.status);
      if (last.status === 429) await last.body?.cancel();
    }
    // Also shows that a refused guess sets the visitor cookie: without it every guess would be a new visitor.
    expect(statuses.slice(0, CHAT_PASSWORD_RULES.visitor.freeFailures)).toEqual(
      Array(CHAT_PASSWORD_RULES.visitor.freeFailures).fill(401),
    );
    expect(statuses.slice(CHAT_PASSWORD_RULES.visitor.freeFailures).every((status) => status === 429)).toBe(true);
    expect(last!.status).toBe(429);
    const retryAfter = Number(last!.headers.get("retry-after"));
    expect(retryAfter).toBeGreaterThan(0);

    // While waiting, even the right password is not checked.
    const early = await guess(PASSWORD);
    expect(early.status).toBe(429);
    const error = await errorOf(early);
    expect(error).toMatchObject({ code: "too_many_attempts", retryAfter: expect.any(Number) });
    expect(error.message).toMatch(/^Too many wrong passwords for this chat: try again in \d+ seconds?\.$/);

    waitOut(early);
    const unlocked = await guess(PASSWORD);
    expect(unlocked.status).toBe(204);
    expect(unlocked.headers.getSetCookie().some((line) => line.startsWith("trellis-chat-access="))).toBe(true);
  });

  it("is limited per chat across visitors and addresses, with a short wait that the right password passes after", async () => {
    chatId = await chatWithPassword();
    let refused: Response | undefined;
    // A guesser with a new browser and a new address for every guess.
    for (let attempt = 0; attempt < CHAT_PASSWORD_RULES.chat.freeFailures + 1 && !refused; attempt += 1) {
      const response = await visitor(`198.18.${Math.floor(attempt / 250)}.${(attempt % 250) + 1}`)(
        `spread guess ${attempt}`,
      );
      if (response.status === 429) refused = response;
      else expect(response.status).toBe(401);
    }
    expect(refused, "the chat's own limit never answered 429").toBeDefined();
    // An honest visitor arriving now shares the chat's wait, which is short...
    const honest = visitor("192.0.2.77");
    const waiting = await honest(PASSWORD);
    expect(waiting.status).toBe(429);
    expect(Number(waiting.headers.get("retry-after"))).toBeLessThanOrEqual(CHAT_PASSWORD_RULES.chat.maxDelayS);
    // ...and then gets in.
    waitOut(waiting);
    expect((await honest(PASSWORD)).status).toBe(204);
  }, 180_000);

  it("never locks out anyone's sign-in: the owner signs in from the address the chat refuses", async () => {
    chatId = await chatWithPassword();
    const guess = visitor("127.0.0.1");
    let response = await guess("not it");
    for (let attempt = 0; attempt < 20 && response.status !== 429; attempt += 1) response = await guess("still not it");
    expect(response.status).toBe(429);
    const auth = createAuth({
      prisma: kit.database.prisma,
      secret: randomBytes(32).toString("hex"),
      trustedProxies: parseTrustedProxies(undefined),
      now: () => clock.now,
    });
    const owner = { name: "Chat Owner", email: "chat-owner@example.com", password: "the owner's long password" };
    await createUserByInvitation(owner, auth);
    const authServer = await serveRoute({ POST: (request) => auth.handler(request) });
    try {
      const signedIn = await fetch(`${authServer.origin}/api/auth/sign-in/email`, {
        method: "POST",
        headers: { origin: authServer.origin, "content-type": "application/json" },
        body: JSON.stringify({ email: owner.email, password: owner.password }),
      });
      expect(signedIn.status).toBe(200);
    } finally {
      await authServer.close();
    }
  });
});
