import { expect, test } from "@playwright/test";
import { openDeployTab } from "./pages/deploy-drawer";

// Under `next dev` the first visit of a page compiles it, which can take a minute on a busy machine.
test.setTimeout(180_000);

test("a schedule is typed with its next five times shown, refused while it never fires, created, listed and paused", async ({
  page,
  request,
}) => {
  const created = await request.post("/api/workflows", {
    data: {
      name: `Scheduled ${Date.now()}`,
      blocks: [
        { id: "start", type: "start", name: "Start", position: { x: 0, y: 0 }, config: { inputs: [] } },
        { id: "reply", type: "response", name: "Reply", position: { x: 300, y: 0 }, config: { data: { ok: true } } },
      ],
      edges: [{ id: "start-reply", source: "start", target: "reply" }],
    },
  });
  expect(created.status(), await created.text()).toBe(201);
  const workflowId = ((await created.json()) as { id: string }).id;

  await openDeployTab(page, workflowId, "schedules");
  const form = page.getByRole("form", { name: "New schedule" });
  await expect(form).toBeVisible({ timeout: 120_000 });
  await form.getByLabel("Time zone").selectOption("Europe/Paris");

  const cron = form.getByLabel("Cron expression");
  await cron.fill("0 0 30 2 *");
  await expect(page.getByTestId("schedule-preview-error")).toContainText('"0 0 30 2 *" never fires');

  await cron.fill("30 9 * * 1-5");
  const preview = page.getByTestId("schedule-preview");
  await expect(preview.getByRole("listitem")).toHaveCount(5);
  await expect(page.getByTestId("schedule-preview-error")).toHaveCount(0);
  // Shown in the schedule's zone: 09:30 on weekdays, Paris time.
  for (const item of await preview.getByRole("listitem").all()) await expect(item).toContainText("09:30:00");

  await form.getByRole("button", { name: "Create schedule" }).click();
  const row = page.getByTestId("schedule-row").filter({ hasText: "30 9 * * 1-5" });
  await expect(row).toBeVisible();
  await expect(row).toContainText("Europe/Paris");
  await expect(row.getByTestId("schedule-state")).toHaveText("Active");
  await expect(row.getByTestId("schedule-next-runs").getByRole("listitem")).toHaveCount(5);
  await expect(row).toContainText("Not fired yet.");

  await row.getByRole("button", { name: "Pause 30 9 * * 1-5 (Europe/Paris)" }).click();
  await expect(row.getByTestId("schedule-state")).toHaveText("Paused");
  await expect(row).toContainText("Paused: nothing fires");

  // The pause is stored: the API lists it paused.
  const listed = await request.get(`/api/workflows/${workflowId}/schedules`);
  expect(((await listed.json()) as { schedules: { cron: string; paused: boolean }[] }).schedules).toEqual([
    expect.objectContaining({ cron: "30 9 * * 1-5", paused: true }),
  ]);
});
