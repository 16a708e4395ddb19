import { randomUUID } from "node:crypto";
import { expect, test, type Page } from "@playwright/test";
import { WORKSPACE_HEADER } from "@/contract";
import { startTestLlmServer } from "../providers/testing/test-llm-server";
import { startScriptedLlm } from "./scripted-llm";
import { E2E_OWNER } from "./owner";
import { createWorkflow, EditorPage, START_BLOCK, type TestBlock } from "./pages/editor-page";
import { RunPage } from "./pages/run-page";

// Under `next dev` the first visit of each page compiles it, which can take a minute on a busy machine.
test.describe.configure({ timeout: 180_000 });
test.use({ viewport: { width: 1600, height: 1000 } });

/** Waiting for a page (or a client-side navigation) that `next dev` may compile first. */
const FIRST_VISIT = { timeout: 90_000 };

/** Opens the home page and waits until its list has loaded. */
async function openHome(page: Page) {
  await page.goto("/");
  await expect(page.getByRole("list", { name: "Workflows" }).or(page.getByText(/^No workflows/))).toBeVisible(
    FIRST_VISIT,
  );
}

/** The workspace the page acts in, as the switcher shows it. */
async function currentWorkspaceName(page: Page): Promise<string> {
  return ((await page.getByTestId("current-workspace").textContent()) ?? "").trim();
}

/** Makes a workspace with the switcher's "New workspace" form; the page reloads inside it. */
async function createWorkspaceWithSwitcher(page: Page, name: string) {
  await page.getByRole("button", { name: /^Workspace:/ }).click();
  await page.getByRole("menuitem", { name: "New workspace" }).click();
  const dialog = page.getByRole("dialog", { name: "New workspace" });
  await dialog.getByLabel("Workspace name").fill(name);
  await dialog.getByRole("button", { name: "Create workspace" }).click();
  await expect(page.getByTestId("current-workspace")).toHaveText(name, FIRST_VISIT);
  await expect(page.getByTestId("current-role")).toHaveText("Owner");
}

/** Opens a settings page from the user menu. */
async function openSettings(page: Page, item: "Members" | "Secrets" | "API keys", path: RegExp) {
  await page.getByTestId("user-menu").getByRole("button").first().click();
  await page.getByRole("menuitem", { name: item }).click();
  await expect(page).toHaveURL(path, FIRST_VISIT);
  await expect(page.getByRole("heading", { name: item, exact: true })).toBeVisible(FIRST_VISIT);
}

test("a viewer invited on the Members page joins by the link, sees the workflow read-only, and the API refuses a change", async ({
  page,
  request,
  browser,
  baseURL,
}) => {
  const workflowName = `Viewed only ${Date.now()}`;
  const workflowId = await createWorkflow(request, { name: workflowName, blocks: [START_BLOCK] });

  // The owner invites a viewer.
  await openHome(page);
  const workspaceName = await currentWorkspaceName(page);
  await openSettings(page, "Members", /\/settings\/members$/);
  const invite = page.getByRole("form", { name: "Invite a member" });

  // Inviting someone who is a member already is refused, and the page says why.
  await invite.getByLabel("Email").fill(E2E_OWNER.email);
  await invite.getByRole("button", { name: "Invite" }).click();
  await expect(page.getByTestId("invite-error")).toContainText("already a member");

  const email = `viewer-${Date.now()}@e2e.test`;
  await invite.getByLabel("Email").fill(email);
  await invite.getByLabel("Role").selectOption("viewer");
  await invite.getByRole("button", { name: "Invite" }).click();
  await expect(page.getByTestId("new-invitation")).toContainText("it is shown once and expires");
  const link = await page.getByLabel("Invitation link").inputValue();
  expect(link).toMatch(/\/invite\/[^/]+$/);
  await expect(page.getByTestId("invitation-row").filter({ hasText: email })).toContainText("Viewer");

  // The invitee, in a browser of their own, creates the account from the link.
  const viewerContext = await browser.newContext({
    baseURL,
    storageState: { cookies: [], origins: [] },
    viewport: { width: 1600, height: 1000 },
  });
  try {
    const viewer = await viewerContext.newPage();
    await viewer.goto(new URL(link).pathname);
    await expect(viewer.getByRole("heading", { name: `Join ${workspaceName}` })).toBeVisible(FIRST_VISIT);
    const account = viewer.getByRole("form", { name: "Create your account" });
    await account.getByLabel("Name").fill("Vera Viewer");
    await account.getByLabel("Password").fill("viewer-password-1");
    await account.getByRole("button", { name: "Create account and join" }).click();
    await expect(viewer.getByRole("heading", { name: "Workflows" })).toBeVisible(FIRST_VISIT);
    await expect(viewer.getByTestId("current-workspace")).toHaveText(workspaceName);
    await expect(viewer.getByTestId("current-role")).toHaveText("Viewer");
    await expect(viewer.getByRole("link", { name: workflowName })).toBeVisible();
    await expect(viewer.getByRole("button", { name: "New workflow" })).toHaveCount(0);
    await expect(viewer.getByRole("button", { name: `Delete ${workflowName}` })).toHaveCount(0);

    // The editor shows the workflow, and nothing to change or run it with.
    const editor = new EditorPage(viewer);
    await editor.open(workflowId);
    await expect(viewer.getByTestId("read-only-banner")).toContainText(
      `View only — your role in ${workspaceName} is viewer`,
    );
    await expect(viewer.getByTestId("run-button")).toHaveCount(0);
    await expect(viewer.getByTestId("palette")).toHaveCount(0);
    await expect(viewer.getByTestId("save-status")).toHaveCount(0);
    await editor.select("Start");
    await expect(editor.field("name")).toBeDisabled();
    await viewer.keyboard.press("Delete");
    await expect(editor.block("Start")).toBeVisible();

    // A change sent by hand, with the viewer's session, is refused.
    const refused = await viewer.evaluate(async (id) => {
      const current = (await (await fetch(`/api/workflows/${id}`)).json()) as {
        name: string;
        blocks: unknown[];
        edges: unknown[];
        version: number;
      };
      const response = await fetch(`/api/workflows/${id}`, {
        method: "PUT",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({
          name: "Changed by a viewer",
          blocks: current.blocks,
          edges: current.edges,
          version: current.version,
        }),
      });
      return { status: response.status, body: await response.text() };
    }, workflowId);
    expect(refused.status).toBe(403);
    // Refused for the role, not by the cross-site guard.
    expect(refused.body).toContain("viewer");
    const stored = (await (await request.get(`/api/workflows/${workflowId}`)).json()) as {
      name: string;
      version: number;
    };
    expect(stored).toMatchObject({ name: workflowName, version: 1 });

    // The viewer reads the members, and cannot invite.
    await viewer.goto("/settings/members");
    await expect(viewer.getByRole("table", { name: "Members" })).toContainText(email, FIRST_VISIT);
    await expect(viewer.getByRole("form", { name: "Invite a member" })).toHaveCount(0);
  } finally {
    await viewerContext.close();
  }
});

test("a second workspace made with the switcher cannot open the first one's workflow by its URL", async ({
  page,
  request,
}) => {
  const workflowName = `Workspace A only ${Date.now()}`;
  const workflowId = await createWorkflow(request, { name: workflowName, blocks: [START_BLOCK] });

  await openHome(page);
  const first = await currentWorkspaceName(page);
  await expect(page.getByRole("link", { name: workflowName })).toBeVisible();

  const second = `Workspace B ${Date.now()}`;
  await createWorkspaceWithSwitcher(page, second);
  await expect(page.getByText("No workflows yet")).toBeVisible(FIRST_VISIT);

  await page.goto(`/workflows/${workflowId}`);
  await expect(page.getByTestId("editor-error")).toContainText("not found", FIRST_VISIT);
  // The browser's session acts in B now (the cookie); the owner's default session still in A.
  expect((await page.request.get(`/api/workflows/${workflowId}`)).status()).toBe(404);
  expect((await request.get(`/api/workflows/${workflowId}`)).status()).toBe(200);

  // Back to the first workspace: the workflow is there again.
  await openHome(page);
  await page.getByRole("button", { name: /^Workspace:/ }).click();
  await page
    .getByRole("menuitemradio", { name: new RegExp(`^${first.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}`) })
    .click();
  await expect(page.getByTestId("current-workspace")).toHaveText(first, FIRST_VISIT);
  await expect(page.getByRole("link", { name: workflowName })).toBeVisible();
});

test("a key set on the Secrets page runs the workspace's models with its own key, at the operator's server", async ({
  page,
}) => {
  // The operator's OpenAI-compatible server (OPENAI_COMPATIBLE_BASE_URL of the e2e server).
  const llm = await startScriptedLlm();
  const canary = `sk-canary-${randomUUID()}`;
  const marker = `workspace-server-${randomUUID().slice(0, 8)}`;
  // The answer repeats the key: the run must show it masked.
  llm.enqueue({ kind: "text", text: `Hello from ${marker}. You sent ${canary}.` });
  try {
    await openHome(page);
    await createWorkspaceWithSwitcher(page, `Own keys ${Date.now()}`);
    await openSettings(page, "Secrets", /\/settings\/secrets$/);
    const form = page.getByRole("form", { name: "Store a secret" });

    // A name breaking the rule is refused before anything is sent.
    await form.getByLabel("Name").fill("openai_api_key");
    await form.getByLabel("Value").fill("not sent");
    await form.getByRole("button", { name: "Save secret" }).click();
    await expect(page.getByTestId("secret-problem")).toContainText("must match");
    await expect(page.getByTestId("secret-row")).toHaveCount(0);

    await form.getByLabel("Name").fill("OPENAI_COMPATIBLE_API_KEY");
    await expect(form.getByLabel("Value")).toHaveAttribute("type", "password");
    await form.getByLabel("Value").fill(canary);
    await form.getByRole("button", { name: "Save secret" }).click();
    await expect(page.locator('[data-testid="secret-row"][data-name="OPENAI_COMPATIBLE_API_KEY"]')).toBeVisible();
    await expect(form.getByLabel("Value")).toHaveValue("");
    // A stored name offers to replace its value.
    await form.getByLabel("Name").fill("OPENAI_COMPATIBLE_API_KEY");
    await expect(form.getByRole("button", { name: "Replace" })).toBeVisible();
    await form.getByLabel("Name").fill("");
    await page.reload();
    await expect(page.getByTestId("secret-row")).toHaveCount(1, FIRST_VISIT);
    expect(await page.locator("body").innerText()).not.toContain(canary);

    // A workflow of this workspace (the browser's session acts in it) whose agent uses the OpenAI-compatible server.
    const agent: TestBlock = {
      id: "agent",
      type: "agent",
      name: "Agent",
      position: { x: 400, y: 160 },
      config: { model: "openai-compatible/gpt-4o-mini", userPrompt: "<start.message>" },
    };
    const respond: TestBlock = {
      id: "respond",
      type: "response",
      name: "Response",
      position: { x: 720, y: 160 },
      config: { data: { answer: "<Agent.content>" } },
    };
    const workflowId = await createWorkflow(page.request, {
      name: `Own key ${Date.now()}`,
      blocks: [START_BLOCK, agent, respond],
      edges: [
        { id: "e1", source: "start", target: "agent", sourceHandle: "out" },
        { id: "e2", source: "agent", target: "respond", sourceHandle: "out" },
      ],
    });

    const editor = new EditorPage(page);
    await editor.open(workflowId);
    const run = new RunPage(page);
    await run.startRun({ message: "Which server answers?" });
    await run.expectStatus("succeeded", 90_000);
    await expect(run.nodeText("agent")).toContainText(`Hello from ${marker}.`);

    expect(llm.requests.length).toBeGreaterThan(0);
    for (const received of llm.requests) {
      expect(received.path).toBe("/v1/chat/completions");
      expect(received.headers.authorization).toBe(`Bearer ${canary}`);
    }

    const runId = await run.runId();
    expect(await page.locator("body").innerText()).not.toContain(canary);
    const stored = await page.request.get(`/api/runs/${runId}`);
    expect(stored.ok()).toBe(true);
    expect(await stored.text()).not.toContain(canary);
  } finally {
    await llm.close();
  }
});

// A provider's server is the operator's: a workspace that stores OPENAI_BASE_URL has OpenAI refused,
// and the server it names hears nothing (neither the operator's key nor anything else).
test("a workspace that stores OPENAI_BASE_URL has OpenAI refused, and the server it names hears nothing", async ({
  request,
}) => {
  const llm = await startTestLlmServer();
  try {
    const created = await request.post("/api/workspaces", { data: { name: `Base URL only ${Date.now()}` } });
    expect(created.status()).toBe(201);
    const headers = { [WORKSPACE_HEADER]: ((await created.json()) as { id: string }).id };
    expect(
      (await request.put("/api/secrets/OPENAI_BASE_URL", { headers, data: { value: llm.openaiBaseUrl } })).ok(),
    ).toBe(true);
    const agent: TestBlock = {
      id: "agent",
      type: "agent",
      name: "Agent",
      position: { x: 400, y: 160 },
      config: { model: "openai/gpt-4o-mini", userPrompt: "<start.message>" },
    };
    const workflow = await request.post("/api/workflows", {
      headers,
      data: {
        name: "Base URL only",
        blocks: [START_BLOCK, agent],
        edges: [{ id: "e1", source: "start", target: "agent", sourceHandle: "out" }],
      },
    });
    expect(workflow.status()).toBe(201);
    const workflowId = ((await workflow.json()) as { id: string }).id;
    const answer = await request.post(`/api/workflows/${workflowId}/runs`, {
      headers,
      data: { input: { message: "whose key?" }, wait: true },
      timeout: 90_000,
    });
    const run = (await answer.json()) as { status: string; error: { code: string; message: string } | null };
    expect(run.status, JSON.stringify(run)).toBe("failed");
    expect(run.error?.code).toBe("outbound_refused");
    expect(run.error?.message).toContain("stores a secret named OPENAI_BASE_URL");
    expect(llm.requests).toEqual([]);
  } finally {
    await llm.close();
  }
});
