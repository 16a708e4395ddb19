import { expect, test, type Page } from "@playwright/test";
import path from "node:path";
import { fileURLToPath } from "node:url";

const fixtures = path.join(path.dirname(fileURLToPath(import.meta.url)), "fixtures");

// Under `next dev` the first visit of each page compiles it, which can take a minute on a busy machine.
test.setTimeout(180_000);

/** Opens the home page and waits until the client has loaded the list (the page is interactive). */
async function openHome(page: Page) {
  await page.goto("/");
  await expect(page.getByRole("list", { name: "Workflows" }).or(page.getByText("No workflows yet"))).toBeVisible({
    timeout: 120_000,
  });
}

test("the home page loads and lists workflows", async ({ page }) => {
  await openHome(page);
  await expect(page.getByRole("heading", { name: "Workflows" })).toBeVisible();
  await expect(page.getByRole("button", { name: "New workflow" })).toBeEnabled();
});

test("a workflow is created, renamed, and still there after a reload", async ({ page }) => {
  await openHome(page);
  const created = page.waitForResponse(
    (response) => response.url().endsWith("/api/workflows") && response.request().method() === "POST",
  );
  await page.getByRole("button", { name: "New workflow" }).click();
  const response = await created;
  expect(response.status()).toBe(201);
  const workflowId = ((await response.json()) as { id: string }).id;

  await openHome(page);
  const row = page.locator(`[data-workflow-id="${workflowId}"]`);
  await expect(row).toBeVisible();
  const name = `Renamed ${Date.now()}`;
  await row.getByRole("button", { name: /^Rename / }).click();
  const input = row.getByLabel("Workflow name");
  await input.fill(name);
  await input.press("Enter");
  await expect(row.getByTestId("workflow-link")).toHaveText(name);

  await page.reload();
  await expect(page.getByRole("list", { name: "Workflows" })).toBeVisible({ timeout: 120_000 });
  await expect(page.locator(`[data-workflow-id="${workflowId}"]`).getByTestId("workflow-link")).toHaveText(name);
  const stored = await page.request.get(`/api/workflows/${workflowId}`);
  expect((await stored.json()).name).toBe(name);
});

test("importing an invalid workflow shows the error and stores nothing", async ({ page }) => {
  await openHome(page);
  const before = (await (await page.request.get("/api/workflows")).json()).workflows.length;
  await page.getByTestId("import-file").setInputFiles(path.join(fixtures, "invalid-dangling-edge.json"));
  const alert = page.getByTestId("home-notice");
  await expect(alert).toContainText("Could not import invalid-dangling-edge.json");
  await expect(alert).toContainText("edges[0]");
  await expect(alert).toContainText("ghost");
  const after = (await (await page.request.get("/api/workflows")).json()).workflows.length;
  expect(after).toBe(before);
});

test("importing a file that is not JSON says so", async ({ page }) => {
  await openHome(page);
  await page
    .getByTestId("import-file")
    .setInputFiles({ name: "notes.json", mimeType: "application/json", buffer: Buffer.from("{ not json") });
  await expect(page.getByTestId("home-notice")).toContainText("notes.json is not valid JSON");
});

test("a valid workflow file imports and appears in the list", async ({ page }) => {
  await openHome(page);
  await page.getByTestId("import-file").setInputFiles(path.join(fixtures, "support-routing.json"));
  await expect(page.getByRole("link", { name: "Support routing (imported)" }).first()).toBeVisible();
});
