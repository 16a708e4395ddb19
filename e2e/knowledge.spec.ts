import { expect, test } from "@playwright/test";
import { readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const corpus = path.join(path.dirname(fileURLToPath(import.meta.url)), "..", "knowledge", "__fixtures__", "corpus");
const file = (name: string) => ({ name, mimeType: "application/octet-stream", buffer: readFileSync(path.join(corpus, name)) });

test("a knowledge base is created, files are uploaded and processed, chunks shown, and search shows scores", async ({ page }) => {
  await page.goto("/knowledge");
  await expect(page.getByRole("heading", { name: "Knowledge" })).toBeVisible();
  const name = `Policies ${Date.now()}`;
  await page.getByLabel("Name", { exact: true }).fill(name);
  await page.getByRole("button", { name: "Create knowledge base" }).click();
  await expect(page.getByRole("heading", { name })).toBeVisible();
  await expect(page.getByTestId("offline-embedder-notice")).toContainText("matches words, not meaning");

  await page.getByTestId("file-input").setInputFiles([file("refund-policy.md"), file("shipping-policy.md"), file("company-holidays.pdf")]);
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
  await expect(page.getByRole("alert").filter({ hasText: "notes.txt" })).toContainText('"notes.txt" is named .txt but its content is a PNG image');
  await expect(page.getByText("No documents yet.")).toBeVisible();
});
