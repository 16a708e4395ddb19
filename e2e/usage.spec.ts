import { readFileSync } from "node:fs";
import { expect, test, type APIRequestContext } from "@playwright/test";
import { WORKSPACE_COOKIE, WORKSPACE_HEADER, type UsageReport } from "@/contract";
import { START_BLOCK, type TestBlock } from "./pages/editor-page";

// Under `next dev` the first visit of a page compiles it, which can take a minute on a busy machine.
test.describe.configure({ timeout: 180_000 });

const AGENT: TestBlock = {
  id: "agent",
  type: "agent",
  name: "Agent",
  position: { x: 400, y: 160 },
  config: { model: "openai/gpt-4o-mini", userPrompt: "<start.message>" },
};

interface Seeded {
  workspaceId: string;
  workflowName: string;
  keys: Array<{ id: string; name: string; prefix: string }>;
}

/**
 * A workspace of its own, so the rows are exactly these: two API keys (the first runs the
 * workflow twice, the second once) and one run from the editor's session, all real runs against
 * the test LLM server with a priced model.
 */
async function seedRuns(request: APIRequestContext, script: APIRequestContext): Promise<Seeded> {
  const created = await request.post("/api/workspaces", { data: { name: `Usage ${Date.now()}` } });
  expect(created.status()).toBe(201);
  const workspaceId = ((await created.json()) as { id: string }).id;
  const headers = { [WORKSPACE_HEADER]: workspaceId };
  const workflowName = `Support, "tier 1"`;
  const workflow = await request.post("/api/workflows", {
    headers,
    data: {
      name: workflowName,
      blocks: [START_BLOCK, AGENT],
      edges: [{ id: "e1", source: "start", target: "agent", sourceHandle: "out" }],
    },
  });
  expect(workflow.status(), await workflow.text()).toBe(201);
  const workflowId = ((await workflow.json()) as { id: string }).id;

  const keys: Array<Seeded["keys"][number] & { key: string }> = [];
  for (const name of ["Checkout, prod", "Nightly batch"]) {
    const made = await request.post("/api/api-keys", { headers, data: { name } });
    expect(made.status()).toBe(201);
    keys.push((await made.json()) as Seeded["keys"][number] & { key: string });
  }
  const run = async (context: APIRequestContext, extraHeaders: Record<string, string>) => {
    const answer = await context.post(`/api/workflows/${workflowId}/runs`, {
      headers: extraHeaders,
      data: { input: { message: "refund" }, wait: true },
      timeout: 90_000,
    });
    const body = (await answer.json()) as { status: string; cost: { total: number } | null };
    expect(body.status, JSON.stringify(body)).toBe("succeeded");
    expect(body.cost?.total).toBeGreaterThan(0);
  };
  for (const key of [keys[0]!, keys[0]!, keys[1]!]) await run(script, { authorization: `Bearer ${key.key}` });
  await run(request, headers);
  return { workspaceId, workflowName, keys: keys.map(({ id, name, prefix }) => ({ id, name, prefix })) };
}

test("the Usage page charts and lists cost per API key, regroups by workflow and model, and downloads the rows as CSV", async ({
  page,
  request,
  playwright,
  baseURL,
}) => {
  // A script with a key and no cookie.
  const script = await playwright.request.newContext({ baseURL, storageState: { cookies: [], origins: [] } });
  const seeded = await seedRuns(request, script);
  await script.dispose();
  await page.context().addCookies([{ name: WORKSPACE_COOKIE, value: seeded.workspaceId, url: baseURL! }]);
  const [checkout, batch] = seeded.keys as [Seeded["keys"][number], Seeded["keys"][number]];

  await page.goto("/");
  await page.getByRole("link", { name: "Usage" }).click();
  await expect(page).toHaveURL(/\/usage$/);
  await expect(page.getByRole("heading", { name: "Usage" })).toBeVisible();
  await expect(page.getByRole("button", { name: "30 days" })).toHaveAttribute("aria-pressed", "true");

  // By API key (the default): each key by name and prefix, and the session's run under no key.
  const rows = page.getByTestId("usage-row");
  await expect(rows).toHaveCount(3);
  await expect(rows.nth(0)).toContainText(`${checkout.name} (${checkout.prefix}…)`);
  await expect(rows.nth(0).locator("td").nth(1)).toHaveText("2");
  await expect(rows.filter({ hasText: batch.name }).locator("td").nth(1)).toHaveText("1");
  await expect(rows.filter({ hasText: "No API key: Editor (signed-in users)" }).locator("td").nth(1)).toHaveText("1");
  await expect(page.getByTestId("usage-totals").locator("td").nth(1)).toHaveText("4");
  const chart = page.getByTestId("usage-chart");
  await expect(chart).toContainText("Cost per API key");
  await expect(chart.locator(".recharts-bar-rectangle")).toHaveCount(3);

  // The table's dollars are the API's, as the run figures read elsewhere.
  const api = (await (
    await request.get("/api/usage?groupBy=apiKey", { headers: { [WORKSPACE_HEADER]: seeded.workspaceId } })
  ).json()) as UsageReport;
  const checkoutRow = api.rows.find((row) => row.key === checkout.id)!;
  await expect(rows.nth(0).locator("td").nth(3)).toContainText(
    `$${checkoutRow.cost!.total.toFixed(10).replace(/0+$/, "").padEnd(4, "0")}`,
  );

  // CSV: the same rows, a header first, the name with a comma quoted.
  const [download] = await Promise.all([
    page.waitForEvent("download"),
    page.getByRole("button", { name: "Download CSV" }).click(),
  ]);
  expect(download.suggestedFilename()).toMatch(/^trellis-usage-apiKey-\d{4}-\d{2}-\d{2}-to-\d{4}-\d{2}-\d{2}\.csv$/);
  const lines = readFileSync((await download.path())!, "utf8")
    .trimEnd()
    .split("\r\n");
  expect(lines[0]).toBe(
    "group,key,runs,prompt_tokens,completion_tokens,total_tokens,cost_usd,priced_cost_usd,unpriced,estimated",
  );
  expect(lines).toHaveLength(4);
  const checkoutLine = lines.find((line) => line.includes(checkout.id))!;
  expect(checkoutLine.startsWith(`"${checkout.name} (${checkout.prefix}…)",${checkout.id},2,`)).toBe(true);
  expect(checkoutLine).toContain(
    `,${checkoutRow.tokens.total},${checkoutRow.cost!.total.toFixed(10).replace(/\.?0+$/, "")},`,
  );
  expect(lines.some((line) => line.startsWith("No API key: Editor (signed-in users),,1,"))).toBe(true);
  // The keys themselves appear nowhere: only ids, names and prefixes.
  expect(lines.join("\n")).not.toMatch(/trl_[A-Za-z0-9_-]{43}/);

  // By workflow: one row, the workflow's name, all four runs.
  await page.getByTestId("usage-group-by").selectOption("workflow");
  await expect(rows).toHaveCount(1);
  await expect(rows.nth(0)).toContainText(seeded.workflowName);
  await expect(rows.nth(0).locator("td").nth(1)).toHaveText("4");
  await expect(chart).toContainText("Cost per workflow");

  // By model: the agent's model.
  await page.getByTestId("usage-group-by").selectOption("model");
  await expect(rows).toHaveCount(1);
  await expect(rows.nth(0)).toContainText("openai/gpt-4o-mini");
  await expect(rows.nth(0).locator("td").nth(1)).toHaveText("4");

  // A period before any run: nothing to show.
  await page.getByRole("button", { name: "Custom" }).click();
  await page.getByLabel("From").fill("2020-01-01");
  await page.getByLabel("To (included)").fill("2020-01-31");
  await expect(page.getByTestId("usage-empty")).toBeVisible();
});
