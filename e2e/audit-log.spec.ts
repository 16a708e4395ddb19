import { readFile } from "node:fs/promises";
import { expect, test } from "@playwright/test";

test.describe.configure({ timeout: 180_000 });
test.use({ viewport: { width: 1600, height: 1000 } });

const SECRET_VALUE = "sk-e2e-audit-value-never-shown";

test("Settings › Audit log shows who changed what, filters by action and exports what it shows, never a secret", async ({
  page,
  request,
}) => {
  // Two changes by the signed-in owner, through the API the pages call.
  const name = `AUDIT_E2E_${Date.now()}`;
  expect((await request.put(`/api/secrets/${name}`, { data: { value: SECRET_VALUE } })).status()).toBe(204);
  expect((await request.delete(`/api/secrets/${name}`)).status()).toBe(204);

  await page.goto("/settings");
  await page
    .getByRole("main")
    .getByRole("link", { name: /Audit log/ })
    .click();
  // The first visit compiles the page when the server runs `next dev`.
  await expect(page).toHaveURL(/\/settings\/audit$/, { timeout: 90_000 });
  const table = page.getByRole("table", { name: "Audit log" });
  const setRow = table.getByTestId("audit-row").filter({ hasText: "secret.set" }).filter({ hasText: name });
  await expect(setRow).toHaveCount(1);
  // Who: the owner the server made at start, signed in in this browser.
  await expect(setRow.getByRole("cell").nth(1)).toHaveText("Owner");
  await expect(
    table.getByTestId("audit-row").filter({ hasText: "secret.delete" }).filter({ hasText: name }),
  ).toHaveCount(1);
  await expect(table).not.toContainText(SECRET_VALUE);

  // Only deletions of secrets.
  await page.getByLabel("Action").selectOption("secret.delete");
  await page.getByRole("button", { name: "Filter" }).click();
  await expect(table.getByTestId("audit-row").first()).toHaveAttribute("data-action", "secret.delete");
  await expect(table.getByTestId("audit-row").filter({ hasText: "secret.set" })).toHaveCount(0);

  // The export holds what the filter selects, as CSV.
  const [download] = await Promise.all([page.waitForEvent("download"), page.getByTestId("audit-export-csv").click()]);
  const csv = await readFile((await download.path())!, "utf8");
  expect(csv.split("\r\n")[0]).toBe(
    "id,at,actorKind,actorId,actorName,action,objectType,objectId,objectName,address,summary",
  );
  expect(csv).toContain(`secret.delete,secret,${name},${name}`);
  expect(csv).not.toContain("secret.set");
  expect(csv).not.toContain(SECRET_VALUE);
});
