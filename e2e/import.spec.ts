import { expect, test } from "@playwright/test";
import path from "node:path";
import { fileURLToPath } from "node:url";

/** Importing other tools' flows from the home page: the report of what mapped and what did not, then the new workflow opens. */

const seedFixtures = path.join(
  path.dirname(fileURLToPath(import.meta.url)),
  "..",
  "lib",
  "workflows",
  "import",
  "__fixtures__",
);

test.setTimeout(180_000);

test.beforeEach(async ({ page }) => {
  await page.goto("/");
  await expect(page.getByRole("list", { name: "Workflows" }).or(page.getByText("No workflows yet"))).toBeVisible({
    timeout: 120_000,
  });
});

test("an AnythingLLM flow imports, its report lists what mapped, and the workflow opens on the canvas", async ({
  page,
}) => {
  await page
    .getByTestId("import-file")
    .setInputFiles(path.join(seedFixtures, "anythingllm", "search-and-summarize.json"));
  const report = page.getByTestId("import-report");
  await expect(report).toContainText("Imported search-and-summarize.json as “Search and Summarize”");
  await expect(report).toContainText("Read as: AnythingLLM agent flow");
  await expect(report.getByRole("list", { name: "Mapped", exact: true })).toContainText(
    "steps[3] (llmInstruction) → Agent block 'LLM summary'",
  );
  await expect(report.getByRole("list", { name: "Not mapped" })).toHaveCount(0);

  await report.getByRole("link", { name: "Open workflow" }).click();
  await expect(page).toHaveURL(/\/workflows\/[^/?]+$/);
  await expect(page.locator(".react-flow__node").filter({ hasText: "LLM summary" })).toBeVisible({ timeout: 60_000 });
  await expect(page.locator(".react-flow__node").filter({ hasText: "Flow Variables" })).toBeVisible();
});

test("an MCP-bridge workflow imported where no MCP server is configured lists plainly what did not map", async ({
  page,
}) => {
  await page.getByTestId("import-file").setInputFiles(path.join(seedFixtures, "mcp-bridge", "code-review.json"));
  const report = page.getByTestId("import-report");
  await expect(report).toContainText("Read as: MCP-bridge workflow definition");
  const notMapped = report.getByRole("list", { name: "Not mapped" });
  await expect(notMapped.getByRole("listitem").filter({ hasText: "agents[0].tools" })).toContainText(
    "no MCP server was chosen",
  );
  await expect(
    notMapped.getByRole("listitem").filter({ hasText: "agents[0].reroute.on.tool:run_linter:error" }),
  ).toContainText("no tool outcome can route");
  // What mapped is folded away when something did not: open it as a person would.
  await report.locator("summary", { hasText: "Mapped (" }).click();
  await expect(report.getByRole("list", { name: "Mapped", exact: true })).toContainText(
    "agents[2] (security-scan) → Agent block 'security-scan' with no tools",
  );
  await expect(
    page.getByRole("list", { name: "Workflows" }).getByRole("link", { name: "code-review" }).first(),
  ).toBeVisible();
});

test("a file of no known shape is refused, naming the formats Trellis knows", async ({ page }) => {
  const before = (await (await page.request.get("/api/workflows")).json()).workflows.length;
  await page.getByTestId("import-file").setInputFiles({
    name: "n8n.json",
    mimeType: "application/json",
    buffer: Buffer.from(JSON.stringify({ nodes: [], connections: {} })),
  });
  const notice = page.getByTestId("home-notice");
  await expect(notice).toContainText("Could not import n8n.json");
  await expect(notice).toContainText("Known formats: Trellis workflow document");
  await expect(notice).toContainText("Sim workflow export");
  expect((await (await page.request.get("/api/workflows")).json()).workflows.length).toBe(before);
});
