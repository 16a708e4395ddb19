import { expect, test } from "@playwright/test";
import { WORKSPACE_COOKIE, WORKSPACE_HEADER } from "@/contract";
import { EditorPage, START_BLOCK } from "./pages/editor-page";

// Under `next dev` the first visit of a page compiles it, which can take a minute on a busy machine.
test.describe.configure({ timeout: 180_000 });
test.use({ viewport: { width: 1440, height: 900 } });

const ANTHROPIC_KEY = "sk-ant-e2e-0123456789abcdef";

test("a model with no key is an item to fix that links to Settings › Model providers, where the workspace's key is set and the connection tested", async ({
  page,
  request,
  baseURL,
}) => {
  // A workspace of its own: the keys it stores change nothing for the other tests.
  const created = await request.post("/api/workspaces", { data: { name: `Providers ${Date.now()}` } });
  expect(created.status()).toBe(201);
  const workspaceId = ((await created.json()) as { id: string }).id;
  const workflow = await request.post("/api/workflows", {
    headers: { [WORKSPACE_HEADER]: workspaceId },
    data: {
      name: "Keyless agent",
      blocks: [
        START_BLOCK,
        {
          id: "agent",
          type: "agent",
          name: "Writer",
          position: { x: 400, y: 160 },
          config: { model: "anthropic/claude-sonnet-4-5", userPrompt: "<start.message>" },
        },
      ],
      edges: [{ id: "e1", source: "start", target: "agent", sourceHandle: "out" }],
    },
  });
  expect(workflow.status(), await workflow.text()).toBe(201);
  const workflowId = ((await workflow.json()) as { id: string }).id;
  await page.context().addCookies([{ name: WORKSPACE_COOKIE, value: workspaceId, url: baseURL! }]);

  // The e2e server has no Anthropic key: Run is held back and the list of what to fix says why.
  const editor = new EditorPage(page);
  await editor.open(workflowId);
  const run = page.getByTestId("run-button");
  await expect(run).toHaveAttribute("aria-disabled", "true");
  await page.getByTestId("fix-list-button").click();
  await expect(page.getByTestId("fix-list-item")).toContainText(
    "anthropic/claude-sonnet-4-5 has no key: set ANTHROPIC_API_KEY in Settings › Model providers",
  );
  await editor.select("Writer");
  const mark = page.getByTestId("model-picker-summary").getByTestId("model-missing-setting");
  await expect(mark).toHaveText("no key");
  await expect(mark).toHaveAttribute("href", "/settings/providers#anthropic");

  // Settings › Model providers: where each key comes from.
  await page.goto("/settings/providers#anthropic");
  const anthropic = page.locator('[data-testid="provider-card"][data-provider="anthropic"]');
  const openai = page.locator('[data-testid="provider-card"][data-provider="openai"]');
  await expect(anthropic.getByTestId("provider-key-source")).toHaveText("No key");
  await expect(openai.getByTestId("provider-key-source")).toHaveText("Key: the server's environment");

  // The workspace's key goes in as its secret, is never shown again, and is what runs use from now on.
  await anthropic.getByLabel("Workspace key").fill(ANTHROPIC_KEY);
  await anthropic.getByRole("button", { name: "Save key" }).click();
  await expect(page.getByTestId("provider-message")).toContainText("Saved the Anthropic key");
  await expect(anthropic).toHaveAttribute("data-key-source", "workspace");
  await expect(anthropic.getByLabel("Replace the workspace's key")).toHaveValue("");
  expect(await page.content()).not.toContain(ANTHROPIC_KEY);
  const secrets = await request.get("/api/secrets", { headers: { [WORKSPACE_HEADER]: workspaceId } });
  expect(
    ((await secrets.json()) as { secrets: Array<{ name: string }> }).secrets.map((secret) => secret.name),
  ).toContain("ANTHROPIC_API_KEY");

  // Test connection: the server's OpenAI key reaches the test LLM server; a wrong workspace key is refused.
  await openai.getByRole("button", { name: "Test connection" }).click();
  await expect(openai.getByTestId("provider-test-result")).toHaveAttribute("data-ok", "true");
  await expect(openai.getByTestId("provider-test-result")).toContainText("Connected: OpenAI answered.");
  await openai.getByLabel("Workspace key").fill("sk-invalid-e2e-key");
  await openai.getByRole("button", { name: "Save key" }).click();
  await expect(openai).toHaveAttribute("data-key-source", "workspace");
  await openai.getByRole("button", { name: "Test connection" }).click();
  await expect(openai.getByTestId("provider-test-result")).toHaveText("OpenAI refused the key (HTTP 401).");
  page.once("dialog", (dialog) => void dialog.accept());
  await openai.getByRole("button", { name: "Remove the workspace's key" }).click();
  await expect(openai).toHaveAttribute("data-key-source", "environment");

  // Back in the editor the model has a key: nothing to fix, Run is enabled.
  await editor.open(workflowId);
  await expect(page.getByTestId("run-button")).not.toHaveAttribute("aria-disabled", "true");
  await expect(page.getByTestId("fix-list-button")).toHaveCount(0);
});
