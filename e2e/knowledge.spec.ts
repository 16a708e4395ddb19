import { expect, test } from "@playwright/test";
import { readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { createWorkflow, EditorPage, START_BLOCK } from "./pages/editor-page";

const corpus = path.join(path.dirname(fileURLToPath(import.meta.url)), "..", "knowledge", "__fixtures__", "corpus");
const file = (name: string) => ({
  name,
  mimeType: "application/octet-stream",
  buffer: readFileSync(path.join(corpus, name)),
});

test("a knowledge base is created, files are uploaded and processed, chunks shown, and search shows scores", async ({
  page,
}) => {
  await page.goto("/knowledge");
  await expect(page.getByRole("heading", { name: "Knowledge" })).toBeVisible();
  const name = `Policies ${Date.now()}`;
  await page.getByLabel("Name", { exact: true }).fill(name);
  await page.getByRole("button", { name: "Create knowledge base" }).click();
  await expect(page.getByRole("heading", { name })).toBeVisible();
  await expect(page.getByTestId("offline-embedder-notice")).toContainText("matches words, not meaning");

  await page
    .getByTestId("file-input")
    .setInputFiles([file("refund-policy.md"), file("shipping-policy.md"), file("company-holidays.pdf")]);
  const rows = page.getByTestId("document-row");
  // The first upload compiles the route in development: allow for it.
  await expect(rows).toHaveCount(3, { timeout: 30_000 });
  await expect(page.getByTestId("document-status").filter({ hasText: "ready" })).toHaveCount(3, { timeout: 30_000 });

  await page.getByRole("button", { name: "Show chunks of refund-policy.md" }).click();
  await expect(page.getByRole("list", { name: "Chunks" })).toContainText("full refund within 30 days");

  await page.getByLabel("Search query").fill("What is our refund policy?");
  await page.getByRole("button", { name: "Search" }).click();
  const first = page.getByTestId("search-result").first();
  await expect(first).toContainText("refund-policy.md");
  await expect(first.getByTestId("search-score")).toHaveText(/^\d\.\d{3}$/);
});

test("a file whose content does not match its type is refused with the reason", async ({ page }) => {
  await page.goto("/knowledge");
  const name = `Refusals ${Date.now()}`;
  await page.getByLabel("Name", { exact: true }).fill(name);
  await page.getByRole("button", { name: "Create knowledge base" }).click();
  await expect(page.getByRole("heading", { name })).toBeVisible();
  const png = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13]);
  await page.getByTestId("file-input").setInputFiles([{ name: "notes.txt", mimeType: "text/plain", buffer: png }]);
  await expect(page.getByRole("alert").filter({ hasText: "notes.txt" })).toContainText(
    '"notes.txt" is named .txt but its content is a PNG image',
  );
  await expect(page.getByText("No documents yet.")).toBeVisible();
});

test("the Knowledge block's inspector lists the bases by name, and flags a chosen base that no longer exists", async ({
  page,
  request,
}) => {
  const name = `Handbook ${Date.now()}`;
  const created = await request.post("/api/knowledge-bases", { data: { name } });
  expect(created.status(), await created.text()).toBe(201);
  const base = (await created.json()) as { id: string };
  // A base the workflow chose, deleted since (a workflow can only be saved naming bases of its workspace).
  const old = (await (
    await request.post("/api/knowledge-bases", { data: { name: `Old handbook ${Date.now()}` } })
  ).json()) as { id: string };
  const workflowId = await createWorkflow(request, {
    name: `Knowledge picker ${Date.now()}`,
    blocks: [
      START_BLOCK,
      {
        id: "kb1",
        type: "knowledge",
        name: "Search",
        position: { x: 420, y: 160 },
        config: { knowledgeBaseIds: [old.id], query: "<Start.message>" },
      },
    ],
  });
  expect((await request.delete(`/api/knowledge-bases/${old.id}`)).status()).toBe(204);
  const editor = new EditorPage(page);
  await editor.open(workflowId);
  await editor.select("Search");

  const missing = page.getByTestId(`knowledge-base-missing-${old.id}`);
  await expect(missing).toContainText("Not found");
  const option = page.getByTestId(`knowledge-base-option-${base.id}`);
  await expect(option).toContainText(name);
  await expect(option).toContainText("0 documents");

  await option.getByRole("checkbox").check();
  await missing.getByRole("button", { name: "Remove" }).click();
  await expect(missing).toHaveCount(0);
  await editor.expectSaved();
  const stored = await editor.storedWorkflow(workflowId);
  expect(stored.blocks.find((block) => block.id === "kb1")!.config!.knowledgeBaseIds).toEqual([base.id]);
});
