import { request, type FullConfig } from "@playwright/test";
import { E2E_OWNER, E2E_STORAGE_STATE } from "./owner";

/**
 * Signs the owner in once (the server created it from TRELLIS_ADMIN_* at start) and keeps the
 * session cookie for every test's browser and request context.
 */
export default async function globalSetup(config: FullConfig): Promise<void> {
  const baseURL = config.projects[0]?.use.baseURL;
  const context = await request.newContext({ baseURL });
  const response = await context.post("/api/auth/sign-in/email", {
    data: { email: E2E_OWNER.email, password: E2E_OWNER.password },
  });
  if (!response.ok()) throw new Error(`The e2e owner could not sign in: ${response.status()} ${await response.text()}`);
  await context.storageState({ path: E2E_STORAGE_STATE });
  await context.dispose();
}
