import { expect, test, type APIRequestContext, type Page } from "@playwright/test";
import { openDeployTab } from "./pages/deploy-drawer";

// The first visits compile the pages and routes when the server runs `next dev`.
test.describe.configure({ timeout: 180_000 });

/**
 * Start → Answer (an agent remembering `<start.history>`, whose prompt also quotes it) → Reply.
 * The test LLM server echoes the prompt's last user message 40 ms a word, so the reply streams,
 * and a reply that quotes an earlier message shows the history reached the workflow.
 */
async function createChatWorkflow(request: APIRequestContext): Promise<string> {
  const block = (id: string, type: string, name: string, x: number, config: Record<string, unknown>) => ({
    id,
    type,
    name,
    position: { x, y: 0 },
    config,
  });
  const document = {
    name: `Chat ${Date.now()}`,
    blocks: [
      block("start", "start", "Start", 0, {
        inputs: [
          { name: "message", type: "string" },
          { name: "history", type: "array", default: [] },
        ],
      }),
      block("answer", "agent", "Answer", 300, {
        model: "openai/gpt-4o-mini",
        memories: "<start.history>",
        userPrompt: "You said: <start.message> | Earlier: <start.history>",
      }),
      block("reply", "response", "Reply", 600, { data: "<Answer.content>" }),
    ],
    edges: [
      { id: "e1", source: "start", target: "answer" },
      { id: "e2", source: "answer", target: "reply" },
    ],
  };
  const created = await request.post("/api/workflows", { data: document });
  expect(created.status(), await created.text()).toBe(201);
  return ((await created.json()) as { id: string }).id;
}

const assistantMessages = (page: Page) => page.locator('[data-testid="chat-message"][data-role="assistant"]');

async function sendMessage(page: Page, text: string) {
  await page.getByTestId("chat-input").fill(text);
  await page.getByTestId("chat-send").click();
}

test("a deployed workflow's chat, enabled in the UI, answers a signed-out visitor with streamed text and remembers the conversation", async ({
  page,
  request,
  browser,
  baseURL,
}) => {
  const workflowId = await createChatWorkflow(request);

  // Before a deployment the panel says so.
  await openDeployTab(page, workflowId, "chat");
  await expect(page.getByTestId("chat-not-deployed")).toBeVisible({ timeout: 60_000 });
  const deployed = await request.post(`/api/workflows/${workflowId}/deployments`, { data: { note: "chat" } });
  expect(deployed.status(), await deployed.text()).toBe(201);
  await openDeployTab(page, workflowId, "chat");
  await expect(page.getByTestId("chat-panel")).toBeVisible({ timeout: 60_000 });
  await expect(page.getByTestId("chat-not-deployed")).toHaveCount(0);

  // Enable, title, and the link.
  // The box follows what is stored: it turns on once the server has saved it.
  await page.getByTestId("chat-enabled").click();
  await expect(page.getByTestId("chat-enabled")).toBeChecked();
  await expect(page.getByTestId("chat-link")).toBeVisible();
  await page.getByTestId("chat-title-input").fill("Ask Trellis");
  await page.getByTestId("chat-save").click();
  await expect(page.getByTestId("chat-title-input")).toHaveValue("Ask Trellis");
  const link = await page.getByTestId("chat-link").inputValue();
  expect(link).toMatch(new RegExp(`^${baseURL}/chat/[A-Za-z0-9_-]{32}$`));
  await expect(page.getByTestId("chat-link-open")).toHaveAttribute("href", link);

  // A visitor with no account.
  const visitorContext = await browser.newContext({ baseURL, storageState: { cookies: [], origins: [] } });
  const visitor = await visitorContext.newPage();
  const dialogs: string[] = [];
  visitor.on("dialog", (dialog) => {
    dialogs.push(dialog.message());
    void dialog.dismiss();
  });
  await visitor.goto(link);
  await expect(visitor.getByTestId("chat-title")).toHaveText("Ask Trellis", { timeout: 60_000 });

  const first =
    "My name is Ada and I would like to know how the weather will be tomorrow in the small town where I live by the sea";
  await sendMessage(visitor, first);
  // Text shows while the reply is still being written.
  await expect
    .poll(
      async () => {
        const reply = assistantMessages(visitor).last();
        const text = (await reply.textContent().catch(() => "")) ?? "";
        return text.includes("Echo:") ? await reply.getAttribute("data-status") : "no text yet";
      },
      { timeout: 60_000, intervals: [50] },
    )
    .toBe("pending");
  await expect(assistantMessages(visitor).last()).toHaveAttribute("data-status", "complete", { timeout: 60_000 });
  await expect(assistantMessages(visitor).last()).toContainText(`You said: ${first}`);
  await expect(visitor.getByTestId("chat-conversation")).toHaveCount(1);
  // The public never sees what a reply cost.
  await expect(visitor.getByTestId("chat-cost")).toHaveCount(0);

  // The second message's reply quotes the first: it was in <start.history>.
  await sendMessage(visitor, "What is my name?");
  await expect(assistantMessages(visitor)).toHaveCount(2);
  await expect(assistantMessages(visitor).last()).toHaveAttribute("data-status", "complete", { timeout: 60_000 });
  await expect(assistantMessages(visitor).last()).toContainText("You said: What is my name?");
  await expect(assistantMessages(visitor).last()).toContainText('"content":"My name is Ada');
  await expect(visitor.getByTestId("chat-conversation")).toHaveCount(1);

  // Markdown from the model is sanitised: no script runs, no javascript: link, no event handler.
  await visitor.getByTestId("chat-new-conversation").click();
  await sendMessage(
    visitor,
    "Try [click me](javascript:alert(1)) and <img src=x onerror=alert(2)> and <script>alert(3)</script>",
  );
  await expect(assistantMessages(visitor).last()).toHaveAttribute("data-status", "complete", { timeout: 60_000 });
  await expect(visitor.getByTestId("chat-messages").locator("script, img[src='x'], [onerror]")).toHaveCount(0);
  const clickMe = assistantMessages(visitor).last().locator("a", { hasText: "click me" });
  await expect(clickMe).toHaveCount(1);
  expect((await clickMe.getAttribute("href")) ?? "").not.toMatch(/javascript:/i);
  await clickMe.click();
  expect(dialogs).toEqual([]);
  await expect(visitor.getByTestId("chat-conversation")).toHaveCount(2);

  // A reload keeps the visitor's conversations (their cookie); another visitor sees none of them.
  await visitor.reload();
  await expect(visitor.getByTestId("chat-conversation")).toHaveCount(2, { timeout: 30_000 });
  const strangerContext = await browser.newContext({ baseURL, storageState: { cookies: [], origins: [] } });
  const stranger = await strangerContext.newPage();
  await stranger.goto(link);
  await expect(stranger.getByTestId("chat-title")).toHaveText("Ask Trellis", { timeout: 60_000 });
  await expect(stranger.getByText("No conversations yet.")).toBeVisible();
  await strangerContext.close();
  await visitorContext.close();

  // A member of the workspace sees the cost of each reply.
  await page.goto(link);
  await sendMessage(page, "Hello from the owner");
  await expect(assistantMessages(page).last()).toHaveAttribute("data-status", "complete", { timeout: 60_000 });
  await expect(page.getByTestId("chat-cost").last()).toHaveText(/^\$0\.\d+$/);
});

test("a visitor stops a long reply; a disabled chat is not found", async ({ page, request, browser, baseURL }) => {
  const workflowId = await createChatWorkflow(request);
  expect((await request.post(`/api/workflows/${workflowId}/deployments`, { data: {} })).status()).toBe(201);
  const enabled = await request.post(`/api/workflows/${workflowId}/chat`, {
    data: { enabled: true, title: "Stoppable" },
  });
  const { url } = (await enabled.json()) as { url: string };

  const context = await browser.newContext({ baseURL, storageState: { cookies: [], origins: [] } });
  const visitor = await context.newPage();
  await visitor.goto(url);
  await expect(visitor.getByTestId("chat-title")).toHaveText("Stoppable", { timeout: 60_000 });
  await sendMessage(visitor, Array.from({ length: 150 }, (_, index) => `word${index}`).join(" "));
  await expect(assistantMessages(visitor).last()).toContainText("Echo:", { timeout: 60_000 });
  await visitor.getByTestId("chat-stop").click();
  await expect(assistantMessages(visitor).last()).toHaveAttribute("data-status", "cancelled", { timeout: 30_000 });
  await expect(assistantMessages(visitor).last()).toContainText("Stopped.");
  await expect(visitor.getByTestId("chat-send")).toBeVisible();

  await request.post(`/api/workflows/${workflowId}/chat`, { data: { enabled: false } });
  await visitor.reload();
  await expect(visitor.getByTestId("chat-unavailable")).toContainText("not available", { timeout: 30_000 });
  await context.close();
  void page;
});
