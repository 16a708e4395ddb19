import "server-only";
import { passwordProblem } from "@/contract";
import { TrellisError } from "@/executor";
import { getAuth, type TrellisAuth } from "./auth";
import { processLogger } from "@/lib/observability";

export type OwnerFromEnvironment = "created" | "exists" | "not_configured";

/**
 * Headless installs (CI, containers): when TRELLIS_ADMIN_EMAIL and TRELLIS_ADMIN_PASSWORD are both
 * set and no user exists yet, creates the owner account. Runs at every start (instrumentation.ts)
 * and does nothing once any user exists. Never logs the password.
 */
export async function ensureOwnerFromEnvironment(
  options: { env?: Record<string, string | undefined>; auth?: TrellisAuth; log?: (message: string) => void } = {},
): Promise<OwnerFromEnvironment> {
  const env = options.env ?? process.env;
  const log = options.log ?? ((message: string) => processLogger().info(message));
  const email = env.TRELLIS_ADMIN_EMAIL?.trim();
  const password = env.TRELLIS_ADMIN_PASSWORD;
  if (!email && !password) return "not_configured";
  if (!email || !password) {
    log("TRELLIS_ADMIN_EMAIL and TRELLIS_ADMIN_PASSWORD work together: set both to create the owner account at start");
    return "not_configured";
  }
  const auth = options.auth ?? getAuth();
  if (await auth.ownerExists()) return "exists";
  const problem = passwordProblem(password);
  if (problem)
    throw new TrellisError(
      "invalid_configuration",
      `TRELLIS_ADMIN_PASSWORD does not meet the password rules. ${problem}`,
    );
  try {
    await auth.createUser({ name: "Owner", email, password });
  } catch (error) {
    // Another process created the owner in the meantime: nothing left to do.
    if (await auth.ownerExists()) return "exists";
    throw new TrellisError(
      "invalid_configuration",
      `Could not create the owner account from TRELLIS_ADMIN_EMAIL: ${messageOf(error)}`,
    );
  }
  log(`created the owner account ${email}`);
  return "created";
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : "unknown error";
}
