import { expect, test } from "@playwright/test";
import path from "node:path";
import { fileURLToPath } from "node:url";

const fixtures = path.join(path.dirname(fileURLToPath(import.meta.url)), "fixtures");

test("the home page loads and lists workflows", async ({ page }) => {
  await page.goto("/");
  await expect(page.getByRole("heading", { name: "Workflows" })).toBeVisible();
  await expect(page.getByRole("button", { name: "New workflow" })).toBeEnabled();
});

test("a workflow is created, renamed, and still there after a reload", async ({ page }) => {
  await page.goto("/");
  await page.getByRole("button", { name: "New workflow" }).click();
  await expect(page).toHaveURL(/\/workflows\/[^/]+$/);
  const workflowId = page.url().split("/").pop()!;

  await page.goto("/");
  const row = page.locator(`[data-workflow-id="${workflowId}"]`);
  await expect(row).toBeVisible();
  const name = `Renamed ${Date.now()}`;
  await row.getByRole("button", { name: /^Rename / }).click();
  const input = row.getByLabel("Workflow name");
  await input.fill(name);
  await input.press("Enter");
  await expect(row.getByTestId("workflow-link")).toHaveText(name);

  await page.reload();
  await expect(page.locator(`[data-workflow-id="${workflowId}"]`).getByTestId("workflow-link")).toHaveText(name);
  const stored = await page.request.get(`/api/workflows/${workflowId}`);
  expect((await stored.json()).name).toBe(name);
});

test("importing an invalid workflow shows the error and stores nothing", async ({ page }) => {
  await page.goto("/");
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
  await page.goto("/");
  await page.getByTestId("import-file").setInputFiles({ name: "notes.json", mimeType: "application/json", buffer: Buffer.from("{ not json") });
  await expect(page.getByTestId("home-notice")).toContainText("notes.json is not valid JSON");
});

test("a valid workflow file imports and appears in the list", async ({ page }) => {
  await page.goto("/");
  await page.getByTestId("import-file").setInputFiles(path.join(fixtures, "support-routing.json"));
  await expect(page.getByRole("link", { name: "Support routing (imported)" }).first()).toBeVisible();
});
