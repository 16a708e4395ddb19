import { expect, test } from "@playwright/test";
import { startTestIdentityProvider, type TestIdentityProvider } from "../lib/sso/__fixtures__/test-identity-provider";

test.describe.configure({ timeout: 180_000 });

let idp: TestIdentityProvider | undefined;
test.afterEach(async ({ request }) => {
  // Other specs expect the sign-in page with password only.
  await request.delete("/api/sso");
  await idp?.close();
});

test("the owner sets an OpenID provider in Settings, and a newcomer signs in through it in the browser and joins the workspace", async ({
  page,
  request,
  browser,
  baseURL,
}) => {
  const { workspaces } = (await (await request.get("/api/workspaces")).json()) as { workspaces: Array<{ id: string }> };
  const workspaceId = workspaces[0]!.id;
  idp = await startTestIdentityProvider([`${baseURL}/api/auth/callback/ws-${workspaceId}`]);

  // Settings › Single sign-on, as the owner. A wrong issuer is told and nothing is stored.
  await page.goto("/settings/sso");
  const form = page.getByRole("form", { name: "Single sign-on provider" });
  await form.getByLabel("Button name (Sign in with …)").fill("Acme ID");
  await form.getByLabel("Issuer URL").fill(`${idp.issuer}/wrong`);
  await form.getByLabel("Client id").fill(idp.clientId);
  await form.getByLabel("Client secret").fill(idp.clientSecret);
  await form.getByLabel("Allowed email domains (comma-separated; empty: any)").fill("acme.example");
  await form.getByLabel("Role of people joining").selectOption("editor");
  await form.getByRole("button", { name: "Save" }).click();
  await expect(form.getByRole("alert")).toContainText("discovery document");
  expect(((await (await request.get("/api/sso")).json()) as { provider: unknown }).provider).toBeNull();

  await form.getByLabel("Issuer URL").fill(idp.issuer);
  await form.getByRole("button", { name: "Save" }).click();
  await expect(form.getByRole("status")).toContainText("Saved");
  await expect(page.getByText(`${baseURL}/api/auth/callback/ws-${workspaceId}`)).toBeVisible();
  // The stored provider (its redirect URI above) remounts the form; the confirmation stays.
  await expect(form.getByRole("status")).toContainText("Saved");

  // A newcomer, in a browser of their own, signs in with the provider.
  idp.signInAs({ sub: "e2e-grace", email: "grace@acme.example", name: "Grace Hopper" });
  const newcomer = await browser.newContext({ storageState: { cookies: [], origins: [] } });
  const visitor = await newcomer.newPage();
  await visitor.goto("/sign-in");
  await visitor.getByRole("button", { name: "Sign in with Acme ID" }).click();
  await visitor.waitForURL((url) => url.origin === new URL(baseURL!).origin && !url.pathname.startsWith("/sign-in"));
  const session = (await (await visitor.request.get("/api/auth/get-session")).json()) as { user: { email: string } };
  expect(session.user.email).toBe("grace@acme.example");
  await newcomer.close();

  // She is a member now, with the role the owner chose, and the audit log says how she came.
  const members = (await (await request.get(`/api/workspaces/${workspaceId}/members`)).json()) as {
    members: Array<{ email: string; role: string }>;
  };
  expect(members.members).toContainEqual(expect.objectContaining({ email: "grace@acme.example", role: "editor" }));
  const joined = (await (await request.get("/api/audit?action=member.join")).json()) as {
    entries: Array<{ actor: { name: string }; summary: unknown }>;
  };
  expect(joined.entries[0]).toMatchObject({
    actor: { name: "Grace Hopper" },
    summary: { after: { role: "editor", via: "Acme ID" } },
  });
});
