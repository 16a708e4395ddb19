import "server-only";
import { hkdfSync } from "node:crypto";
import { loadSecretKey, resolveDatabaseConfig } from "@/lib/db";

/**
 * The secret better-auth signs session cookies with: `BETTER_AUTH_SECRET` when set, else derived
 * (HKDF-SHA256) from Trellis's own key, `TRELLIS_SECRET_KEY` or DATA_DIR/secret.key, so a fresh
 * install needs no extra setting and no two installs share a secret. Derived with its own label,
 * so the session secret never equals the key that encrypts stored secrets. Changing the key signs
 * everyone out.
 */
export function authSecret(env: Record<string, string | undefined> = process.env): string {
  const explicit = env.BETTER_AUTH_SECRET?.trim();
  if (explicit) return explicit;
  const key = loadSecretKey({ env, dataDir: resolveDatabaseConfig(env as NodeJS.ProcessEnv).dataDir });
  return Buffer.from(hkdfSync("sha256", key, Buffer.alloc(0), "trellis/auth/session-secret/v1", 32)).toString("hex");
}
