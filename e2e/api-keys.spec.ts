import { expect, test } from "@playwright/test";

test("an API key made on the settings page is shown once, works as a Bearer key, and stops working when revoked", async ({
  page,
  playwright,
  baseURL,
}) => {
  await page.goto("/");
  await page.getByTestId("user-menu").getByRole("button").first().click();
  await page.getByRole("menuitem", { name: "API keys" }).click();
  await expect(page).toHaveURL(/\/settings\/api-keys$/);

  const name = `CI deploy ${Date.now()}`;
  const form = page.getByRole("form", { name: "New API key" });
  await form.getByLabel("Name").fill(name);
  await form.getByRole("button", { name: "Create key" }).click();
  const key = (await page.getByTestId("new-api-key-value").textContent())?.trim() ?? "";
  expect(key).toMatch(/^trl_[A-Za-z0-9_-]{43}$/);
  await expect(page.getByTestId("api-key-row").filter({ hasText: name })).toContainText(key.slice(0, 12));

  // A script with the key and no cookie.
  const script = await playwright.request.newContext({ baseURL, storageState: { cookies: [], origins: [] } });
  const withKey = await script.get("/api/workflows", { headers: { authorization: `Bearer ${key}` } });
  expect(withKey.status()).toBe(200);

  page.once("dialog", (dialog) => void dialog.accept());
  await page.getByRole("button", { name: `Revoke ${name}` }).click();
  await expect(page.getByTestId("api-key-row").filter({ hasText: name })).toHaveCount(0);
  const revoked = await script.get("/api/workflows", { headers: { authorization: `Bearer ${key}` } });
  expect(revoked.status()).toBe(401);
  await script.dispose();
});
