import { createHmac } from "node:crypto";
import { expect, test } from "@playwright/test";
import { createWorkflow, START_BLOCK } from "./pages/editor-page";
import { openDeployTab } from "./pages/deploy-drawer";
import { RunPage } from "./pages/run-page";

// Under `next dev` the first visit compiles each page.
test.describe.configure({ timeout: 120_000 });

test("a webhook made in the deploy drawer runs the deployment when called, and its delivery links to the run", async ({
  page,
  request,
  baseURL,
}) => {
  const workflowId = await createWorkflow(request, {
    name: `Hooked ${Date.now()}`,
    blocks: [
      START_BLOCK,
      {
        id: "reply",
        type: "response",
        name: "Reply",
        position: { x: 400, y: 160 },
        config: { data: { heard: "<start.message>" } },
      },
    ],
    edges: [{ id: "start-reply", source: "start", target: "reply" }],
  });
  const deployed = await request.post(`/api/workflows/${workflowId}/deployments`, { data: { note: "for the hook" } });
  expect(deployed.status(), await deployed.text()).toBe(201);

  await openDeployTab(page, workflowId, "webhooks");
  const panel = page.getByTestId("webhooks-panel");
  await expect(panel.getByText("No webhooks yet.")).toBeVisible();
  await panel.getByTestId("webhook-signed").check();
  await panel.getByTestId("create-webhook").click();
  const secret = (await page.getByTestId("new-webhook-secret-value").textContent())?.trim() ?? "";
  expect(secret).toMatch(/^whsec_[0-9a-f]{48}$/);
  const hook = panel.getByTestId("webhook");
  await expect(hook).toHaveCount(1);
  await expect(hook.getByTestId("webhook-signature-mode")).toHaveText("Signed: x-trellis-signature required");
  const url = (await hook.getByTestId("webhook-url").textContent())?.trim() ?? "";
  expect(url).toMatch(new RegExp(`^${baseURL}/api/hooks/[A-Za-z0-9_-]{32}$`));
  await expect(hook.getByTestId("no-deliveries")).toBeVisible();

  // An outside service: Node's fetch, no cookie, the body signed with the secret the page showed once.
  const body = JSON.stringify({ message: "order 1001 shipped" });
  const signature = `sha256=${createHmac("sha256", secret).update(body).digest("hex")}`;
  const unsigned = await fetch(url, { method: "POST", headers: { "content-type": "application/json" }, body });
  expect(unsigned.status).toBe(401);
  const accepted = await fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json", "x-trellis-signature": signature },
    body,
  });
  expect(accepted.status).toBe(202);
  const { runId } = (await accepted.json()) as { runId: string };

  // Both deliveries show up, newest first, the accepted one with a link to its run.
  const deliveries = hook.getByTestId("webhook-delivery");
  await expect(deliveries).toHaveCount(2);
  await expect(deliveries.nth(0)).toHaveAttribute("data-status", "202");
  await expect(deliveries.nth(0)).toContainText("run started");
  await expect(deliveries.nth(1)).toHaveAttribute("data-status", "401");
  await expect(deliveries.nth(1)).toContainText("bad signature");
  await expect(deliveries.nth(1).getByTestId("delivery-run-link")).toHaveCount(0);

  await deliveries.nth(0).getByTestId("delivery-run-link").click();
  await expect(page).toHaveURL(new RegExp(`/workflows/${workflowId}/runs/${runId}$`));
  const run = new RunPage(page);
  await expect(page.getByTestId("trace-panel")).toHaveAttribute("data-run-id", runId);
  await run.expectStatus("succeeded");
  const stored = await run.apiRun(runId);
  expect(stored).toMatchObject({ output: { heard: "order 1001 shipped" }, trigger: { kind: "webhook" } });
});
