import { expect, test } from "@playwright/test";
import { E2E_OWNER, E2E_STORAGE_STATE } from "./owner";

// These tests start signed out.
test.use({ storageState: { cookies: [], origins: [] } });

test("signed out, home leads to sign-in; a wrong password is refused; the owner signs in and out", async ({ page }) => {
  await page.goto("/");
  await expect(page).toHaveURL(/\/sign-in/);

  const form = page.getByRole("form", { name: "Sign in" });
  await form.getByLabel("Email").fill(E2E_OWNER.email);
  await form.getByLabel("Password").fill("not-the-password-1");
  await form.getByRole("button", { name: "Sign in" }).click();
  await expect(page.getByTestId("auth-error")).toBeVisible();
  await expect(page).toHaveURL(/\/sign-in/);

  await form.getByLabel("Password").fill(E2E_OWNER.password);
  await form.getByRole("button", { name: "Sign in" }).click();
  await expect(page.getByRole("heading", { name: "Workflows" })).toBeVisible();

  await page.getByTestId("user-menu").getByRole("button").first().click();
  await page.getByRole("menuitem", { name: "Sign out" }).click();
  await expect(page).toHaveURL(/\/sign-in/);
  await page.goto("/");
  await expect(page).toHaveURL(/\/sign-in/);
});

test("the set-up page is closed once the owner exists", async ({ page }) => {
  await page.goto("/setup");
  await expect(page).toHaveURL(/\/sign-in/);
});

test("a signed-out visit to a workflow's page signs in and comes back to it", async ({ page, playwright, baseURL }) => {
  // Create the workflow as the signed-in owner, through the API.
  const owner = await playwright.request.newContext({ baseURL, storageState: E2E_STORAGE_STATE });
  const created = await owner.post("/api/workflows", { data: { name: `Return to me ${Date.now()}` } });
  expect(created.status()).toBe(201);
  const { id } = (await created.json()) as { id: string };
  await owner.dispose();

  const anonymous = await page.request.get("/api/workflows");
  expect(anonymous.status()).toBe(401);

  await page.goto(`/workflows/${id}`);
  await expect(page).toHaveURL(/\/sign-in\?next=/);
  const form = page.getByRole("form", { name: "Sign in" });
  await form.getByLabel("Email").fill(E2E_OWNER.email);
  await form.getByLabel("Password").fill(E2E_OWNER.password);
  await form.getByRole("button", { name: "Sign in" }).click();
  await expect(page).toHaveURL(new RegExp(`/workflows/${id}$`));
  await expect(page.getByTestId("editor")).toBeVisible();
});
