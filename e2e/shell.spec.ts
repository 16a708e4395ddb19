import { expect, test, type APIRequestContext, type Page } from "@playwright/test";
import { importSupportRouting } from "./pages/run-page";

// Under `next dev` the first visit of each page compiles it, which can take a minute on a busy machine.
test.describe.configure({ timeout: 300_000 });
const FIRST_VISIT = { timeout: 120_000 };

/** The page's own title: the last breadcrumb, a heading. */
const pageTitle = (page: Page) => page.getByRole("navigation", { name: "Breadcrumb" }).getByRole("heading");

async function expectAt(page: Page, path: string | RegExp, title: string) {
  await expect(page).toHaveURL(
    typeof path === "string" ? new RegExp(`${path.replace(/[?]/g, "\\?")}$`) : path,
    FIRST_VISIT,
  );
  await expect(pageTitle(page)).toHaveText(title, FIRST_VISIT);
}

/** A workflow whose one Function block throws: each run of it fails. */
async function createFailingWorkflow(request: APIRequestContext, name: string): Promise<string> {
  const response = await request.post("/api/workflows", {
    data: {
      name,
      blocks: [
        { id: "start", type: "start", name: "Start", position: { x: 0, y: 0 }, config: { inputs: [] } },
        {
          id: "fail",
          type: "function",
          name: "Fail",
          position: { x: 300, y: 0 },
          config: { code: "throw new Error('shell test failure')" },
        },
      ],
      edges: [{ id: "e1", source: "start", target: "fail" }],
    },
  });
  expect(response.status(), await response.text()).toBe(201);
  return ((await response.json()) as { id: string }).id;
}

async function finishedRun(
  request: APIRequestContext,
  workflowId: string,
  input: Record<string, unknown> = {},
): Promise<{ id: string; status: string }> {
  const response = await request.post(`/api/workflows/${workflowId}/runs`, {
    data: { input, wait: true },
    timeout: 120_000,
  });
  expect(response.ok(), await response.text()).toBe(true);
  return (await response.json()) as { id: string; status: string };
}

test("the sidebar leads to every place and marks where the user is; the breadcrumbs lead back up", async ({ page }) => {
  await page.goto("/");
  await expectAt(page, "/", "Workflows");
  const sidebar = page.getByTestId("sidebar");
  await expect(sidebar.getByTestId("workspace-switcher")).toBeVisible();
  await expect(sidebar.getByTestId("user-menu")).toBeVisible();
  await expect(sidebar.getByRole("link", { name: "Workflows" })).toHaveAttribute("aria-current", "page");

  const places: Array<[label: string, path: string, title: string]> = [
    ["Knowledge", "/knowledge", "Knowledge"],
    ["Runs", "/runs", "Runs"],
    ["Usage", "/usage", "Usage"],
    ["Settings", "/settings", "Settings"],
    ["API docs", "/api-docs", "API docs"],
    ["Workflows", "/workflows", "Workflows"],
  ];
  for (const [label, path, title] of places) {
    await sidebar.getByRole("link", { name: label, exact: true }).click();
    await expectAt(page, path, title);
    await expect(sidebar.getByRole("link", { name: label, exact: true })).toHaveAttribute("aria-current", "page");
    await expect(sidebar.locator('[aria-current="page"]')).toHaveCount(1);
  }

  // Settings opens its pages in the sidebar; each page's breadcrumb leads back to Settings.
  await sidebar.getByRole("link", { name: "Settings", exact: true }).click();
  await expectAt(page, "/settings", "Settings");
  for (const [label, path] of [
    ["Members", "/settings/members"],
    ["Model providers", "/settings/providers"],
    ["Secrets", "/settings/secrets"],
    ["API keys", "/settings/api-keys"],
    ["Budgets", "/settings/budgets"],
    ["Prices", "/settings/prices"],
  ] as const) {
    await sidebar.getByRole("link", { name: label, exact: true }).click();
    await expectAt(page, path, label);
    await expect(sidebar.getByRole("link", { name: label, exact: true })).toHaveAttribute("aria-current", "page");
    await expect(sidebar.getByRole("link", { name: "Settings", exact: true })).toHaveAttribute("aria-current", "page");
    await page.getByRole("navigation", { name: "Breadcrumb" }).getByRole("link", { name: "Settings" }).click();
    await expectAt(page, "/settings", "Settings");
  }
  // The Settings page itself lists them too.
  await page
    .getByRole("main")
    .getByRole("link", { name: /^Secrets/ })
    .click();
  await expectAt(page, "/settings/secrets", "Secrets");
});

test("the Runs page lists runs across workflows, filters them, and opens one in its editor", async ({
  page,
  request,
}) => {
  const stamp = Date.now();
  const routingId = await importSupportRouting(request, "offline/echo");
  const routingName = ((await (await request.get(`/api/workflows/${routingId}`)).json()) as { name: string }).name;
  const failingName = `Always fails ${stamp}`;
  const failingId = await createFailingWorkflow(request, failingName);
  const succeeded = await finishedRun(request, routingId, { message: "I need support with my order" });
  expect(succeeded.status).toBe("succeeded");
  const failed = await finishedRun(request, failingId);
  expect(failed.status).toBe("failed");

  await page.goto("/runs");
  await expectAt(page, "/runs", "Runs");
  const rows = page.getByTestId("run-list-row");
  const row = (runId: string) => page.locator(`[data-testid="run-list-row"][data-run-id="${runId}"]`);
  await expect(row(succeeded.id)).toBeVisible(FIRST_VISIT);
  await expect(row(failed.id)).toBeVisible();
  await expect(row(succeeded.id).getByTestId("run-list-workflow")).toHaveText(routingName);
  await expect(row(failed.id).getByTestId("run-list-workflow")).toHaveText(failingName);
  await expect(row(failed.id).getByTestId("run-list-workflow")).toHaveAttribute("href", `/workflows/${failingId}`);
  // Newest first: the failing run was started after the other.
  const order = await rows.evaluateAll((elements) => elements.map((element) => element.getAttribute("data-run-id")));
  expect(order.indexOf(failed.id)).toBeLessThan(order.indexOf(succeeded.id));

  // Status: only failed runs, and the address says so (a reload keeps it).
  await page.getByTestId("runs-filter-status").selectOption("failed");
  await expect(page).toHaveURL(/\/runs\?status=failed$/);
  await expect(row(succeeded.id)).toHaveCount(0);
  await expect(row(failed.id)).toBeVisible();
  for (const status of await rows.evaluateAll((elements) =>
    elements.map((element) => element.getAttribute("data-status")),
  ))
    expect(status).toBe("failed");
  await page.reload();
  await expect(page.getByTestId("runs-filter-status")).toHaveValue("failed", FIRST_VISIT);
  await expect(row(failed.id)).toBeVisible();
  await expect(row(succeeded.id)).toHaveCount(0);

  // Workflow and status together: the routing workflow has no failed run.
  await page.getByTestId("runs-filter-workflow").selectOption(routingId);
  await expect(page.getByTestId("runs-empty")).toHaveText("No runs match these filters.");
  await page.getByTestId("runs-filter-status").selectOption("");
  await expect(row(succeeded.id)).toBeVisible();
  await expect(row(failed.id)).toHaveCount(0);
  await expect(rows.getByTestId("run-list-workflow")).toHaveText(Array(await rows.count()).fill(routingName));
  // Trigger: these runs were started by a signed-in person (the editor's kind), none by a webhook.
  await page.getByTestId("runs-filter-trigger").selectOption("webhook");
  await expect(page.getByTestId("runs-empty")).toBeVisible();
  await page.getByTestId("runs-filter-trigger").selectOption("editor");
  await expect(row(succeeded.id)).toBeVisible();

  // A row's time is the run's link: it opens the run in the editor; the editor's breadcrumb leads back to the workflows.
  await row(succeeded.id).getByTestId("run-list-open").click();
  await expect(page).toHaveURL(new RegExp(`/workflows/${routingId}`), FIRST_VISIT);
  expect(page.url()).toContain(succeeded.id);
  await expect(page.getByTestId("editor")).toBeVisible(FIRST_VISIT);
  const editorCrumbs = page.getByTestId("editor").getByRole("navigation", { name: "Breadcrumb" });
  await expect(editorCrumbs.getByLabel("Workflow name")).toHaveValue(routingName);
  await editorCrumbs.getByRole("link", { name: "Workflows" }).click();
  await expectAt(page, "/workflows", "Workflows");
  await expect(page.getByRole("list", { name: "Workflows" }).getByRole("link", { name: routingName })).toBeVisible();
});

test("an unknown address shows a not-found page that leads home", async ({ page }) => {
  const response = await page.goto("/no-such-page/anywhere");
  expect(response?.status()).toBe(404);
  await expect(page.getByRole("heading", { name: "Page not found" })).toBeVisible(FIRST_VISIT);
  await page.getByRole("link", { name: "Go to your workflows" }).click();
  await expectAt(page, "/", "Workflows");
});

test("the favicon is served and linked from every page", async ({ page, request }) => {
  await page.goto("/");
  await expectAt(page, "/", "Workflows");
  const href = await page.locator('head link[rel="icon"]').first().getAttribute("href");
  expect(href).toMatch(/^\/icon\.svg/);
  const icon = await request.get(href!);
  expect(icon.status()).toBe(200);
  expect(icon.headers()["content-type"]).toContain("image/svg+xml");
  expect(await icon.text()).toContain("<svg");
});
