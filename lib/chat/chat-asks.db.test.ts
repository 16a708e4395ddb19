import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ChatSettings, ErrorBody } from "@/contract";
import { createDeploymentService } from "@/lib/deployments/deployment-service";
import { deploymentEndpoints } from "@/lib/deployments/deployment-endpoints";
import { testMember } from "@/lib/http/test-members";
import { startRunTestKit, type RunTestKit } from "@/lib/runs/__fixtures__/run-test-kit";
import { ChatBrowser, chatEvents } from "./__fixtures__/chat-browser";
import { createAttemptLimiter, parseTrustedProxies } from "@/lib/auth";
import { chatAccessTokens } from "./chat-access";
import { chatPasswordGuesses } from "./chat-password-guesses";
import { chatEndpoints, chatSettingsEndpoints, type ChatEndpoints } from "./chat-endpoints";
import { ChatRepository } from "./chat-repository";
import { createChatService } from "./chat-service";
import { createChatSettings } from "./chat-settings";
import { auditRequestsTo } from "@/lib/audit";

/** An ask on a chat's path: the visitor sees the question in the reply's stream, answers it, and the reply streams on. */

let kit: RunTestKit;
let chat: ChatEndpoints;
let chatId: string;
let ws: string;

const block = (id: string, type: string, name: string, config: Record<string, unknown>) => ({
  id,
  type,
  name,
  position: { x: 0, y: 0 },
  config,
});

beforeAll(async () => {
  kit = await startRunTestKit();
  ws = await kit.database.createWorkspace();
  const editor = testMember(ws, "editor");
  const chats = new ChatRepository(kit.database.prisma);
  const key = randomBytes(32);
  chat = chatEndpoints(() =>
    createChatService({
      chats,
      repositories: kit.database.repositories,
      runs: kit.runtime.runs,
      access: chatAccessTokens(() => key),
      passwordGuesses: chatPasswordGuesses(createAttemptLimiter(kit.database.prisma), () =>
        parseTrustedProxies(undefined),
      ),
      signedIn: async () => null,
    }),
  );
  const document = {
    name: "Careful chat",
    blocks: [
      block("start", "start", "Start", { inputs: [{ name: "message", type: "string" }] }),
      block("confirm", "ask", "Secret Confirm Step", {
        question: "Shall I go on with <start.message>?",
        choices: [
          { id: "yes", label: "Yes" },
          { id: "no", label: "No" },
        ],
      }),
      block("go", "response", "Go", { data: "Going on with it." }),
      block("stop", "response", "Stop", { data: "Stopped." }),
    ],
    edges: [
      { id: "e1", source: "start", target: "confirm" },
      { id: "e2", source: "confirm", target: "go", sourceHandle: "choice:yes" },
      { id: "e3", source: "confirm", target: "stop", sourceHandle: "choice:no" },
    ],
  };
  const { id: workflowId } = await kit.database.repositories.workflows.create(ws, document as never);
  const deployments = deploymentEndpoints(
    () => createDeploymentService(kit.database.repositories),
    auditRequestsTo(() => kit.database.prisma),
  );
  const post = (path: string, body: unknown) =>
    new Request(`http://localhost${path}`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(body),
    });
  expect(
    (await deployments.create(post(`/api/workflows/${workflowId}/deployments`, {}), { id: workflowId }, editor)).status,
  ).toBe(201);
  const settings = chatSettingsEndpoints(
    () => createChatSettings(chats, kit.database.repositories),
    auditRequestsTo(() => kit.database.prisma),
  );
  const saved = await settings.save(
    post(`/api/workflows/${workflowId}/chat`, { enabled: true }),
    { id: workflowId },
    editor,
  );
  chatId = ((await saved.json()) as ChatSettings).chatId!;
});
afterAll(() => kit?.close());

async function parkedRun(): Promise<string> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const run = await kit.database.prisma.run.findFirst({
      where: { workspaceId: ws, status: "paused", worker: null },
      orderBy: { queuedAt: "desc" },
    });
    if (run) return run.id;
    if (Date.now() > deadline) throw new Error("the chat's run did not park at its ask");
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

describe("an ask on a chat's path", () => {
  it("shows the question in the reply's stream, takes the visitor's choice, and the reply goes on down that path", async () => {
    const visitor = new ChatBrowser();
    const response = visitor.keep(
      await chat.send(visitor.request("POST", `/api/chat/${chatId}/messages`, { message: "the refund" }), { chatId }),
    );
    expect(response.status).toBe(200);
    const streamed = chatEvents(response);
    const runId = await parkedRun();
    const [ask] = await kit.runtime.runs.asks.pending(runId);
    const conversation = await kit.database.prisma.run.findUniqueOrThrow({
      where: { id: runId },
      select: { conversationId: true },
    });
    const conversationId = conversation.conversationId!;
    const answer = (browser: ChatBrowser, body: unknown) =>
      chat.answerAsk(
        browser.request("POST", `/api/chat/${chatId}/conversations/${conversationId}/asks/${ask!.spanId}`, body),
        {
          chatId,
          conversationId,
          spanId: ask!.spanId,
        },
      );

    // Another browser cannot answer this visitor's question.
    expect((await answer(new ChatBrowser(), { choice: "yes" })).status).toBe(404);
    const wrong = await answer(visitor, { choice: "maybe" });
    expect(wrong.status).toBe(400);
    expect(((await wrong.json()) as ErrorBody).error.message).toContain('"yes", "no"');
    expect((await answer(visitor, { choice: "yes" })).status).toBe(202);

    const events = await streamed;
    const asked = events.find((event) => event.event === "ask.requested");
    expect(asked?.data).toEqual({
      type: "ask.requested",
      runId,
      spanId: ask!.spanId,
      question: "Shall I go on with the refund?",
      choices: [
        { id: "yes", label: "Yes" },
        { id: "no", label: "No" },
      ],
      allowText: false,
      fields: [],
    });
    expect(events.find((event) => event.event === "ask.answered")?.data).toEqual({
      type: "ask.answered",
      runId,
      spanId: ask!.spanId,
    });
    expect(events.at(-1)?.data).toMatchObject({ type: "run.completed", reply: "Going on with it." });
    // The public stream names no block, cost, token count or who answered.
    const text = JSON.stringify(events);
    for (const hidden of ["Secret Confirm Step", "confirm", "cost", "tokens", "answeredBy", "chat visitor"])
      expect(text).not.toContain(hidden);
    const span = (await kit.database.repositories.runs.getWithSpans(ws, runId)).spans.find(
      (item) => item.blockId === "confirm",
    );
    expect(span?.output).toMatchObject({ choice: "yes", answeredBy: "chat visitor" });
  });
});
