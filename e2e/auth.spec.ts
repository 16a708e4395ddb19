import { expect, test } from "@playwright/test";
import { E2E_OWNER } from "./owner";

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
