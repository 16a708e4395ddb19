import { expect, test } from "@playwright/test";

/**
 * The README's first run, on an app with no account yet: the first visitor is led to one form,
 * which makes the owner and the first workspace and opens the home page; a workflow runs with
 * the offline model straight away. Nothing is signed in beforehand (see playwright.config.ts).
 */
test("the first visitor creates the owner in one form, lands on the home page of the first workspace and runs a workflow", async ({
  page,
}) => {
  await page.goto("/");
  await expect(page).toHaveURL(/\/setup/);
  const form = page.getByRole("form", { name: "Create the owner account" });
  await form.getByLabel("Name").fill("First Owner");
  await form.getByLabel("Email").fill("first-owner@example.com");
  await form.getByLabel("Password").fill("first owner's password");
  await form.getByRole("button").click();

  await expect(page.getByRole("heading", { name: "Workflows" })).toBeVisible();
  await expect(page.getByText("Main workspace").first()).toBeVisible();

  // No second owner: the form is closed now.
  await page.goto("/setup");
  await expect(page).not.toHaveURL(/\/setup/);

  // A workflow runs at once on the offline model, through the API the editor uses.
  const created = await page.request.post("/api/workflows", {
    data: {
      name: "Hello",
      blocks: [
        {
          id: "start",
          type: "start",
          name: "Start",
          position: { x: 0, y: 0 },
          config: { inputs: [{ name: "message", type: "string" }] },
        },
        {
          id: "agent",
          type: "agent",
          name: "Agent",
          position: { x: 250, y: 0 },
          config: { model: "offline/echo", userPrompt: "<start.message>" },
        },
      ],
      edges: [{ id: "e1", source: "start", target: "agent" }],
    },
  });
  expect(created.status()).toBe(201);
  const { id } = (await created.json()) as { id: string };
  const run = await page.request.post(`/api/workflows/${id}/runs`, {
    data: { input: { message: "hello trellis" }, wait: true },
  });
  expect(await run.json()).toMatchObject({ status: "succeeded" });
});
