import "server-only";
import { randomBytes } from "node:crypto";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { TrellisError } from "@/executor";

export const SECRET_KEY_BYTES = 32;

/**
 * The AES-256 key that encrypts stored secrets: `TRELLIS_SECRET_KEY` (32 bytes as 64 hex characters
 * or as base64), else DATA_DIR/secret.key, created on first use with mode 0600. Losing the key makes
 * stored secrets unreadable; servers sharing one PostgreSQL database must share the key.
 */
export function loadSecretKey(options: { env?: Record<string, string | undefined>; dataDir: string }): Buffer {
  const fromEnv = options.env?.TRELLIS_SECRET_KEY?.trim();
  if (fromEnv) return parseKey(fromEnv, "TRELLIS_SECRET_KEY");
  const file = path.join(options.dataDir, "secret.key");
  const existing = readKeyFile(file);
  if (existing !== undefined) return parseKey(existing, file);
  mkdirSync(options.dataDir, { recursive: true });
  try {
    // "wx": if another process created the key a moment ago, keep theirs.
    writeFileSync(file, `${randomBytes(SECRET_KEY_BYTES).toString("base64")}\n`, { flag: "wx", mode: 0o600 });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
  }
  return parseKey(readFileSync(file, "utf8").trim(), file);
}

function readKeyFile(file: string): string | undefined {
  try {
    return readFileSync(file, "utf8").trim();
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw error;
  }
}

function parseKey(text: string, source: string): Buffer {
  const key = /^[0-9a-fA-F]{64}$/.test(text) ? Buffer.from(text, "hex") : Buffer.from(text, "base64");
  if (key.length !== SECRET_KEY_BYTES || (!/^[0-9a-fA-F]{64}$/.test(text) && key.toString("base64") !== text)) {
    // The message names where the key came from, never the key.
    throw new TrellisError(
      "invalid_secret_key",
      `${source} must hold a 32-byte key as 64 hex characters or as base64 (for example from \`openssl rand -base64 32\`)`,
    );
  }
  return key;
}
