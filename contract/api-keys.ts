import { z } from "zod";

/**
 * API keys over the API (docs/CONTRACT.md section 7): a script sends `Authorization: Bearer <key>`.
 * The key is shown once, when it is created; lists show its prefix only.
 */

/** Every key starts with this. */
export const API_KEY_PREFIX = "trl_";
/** How many characters of a key lists show (`trl_` and 8 more). */
export const API_KEY_SHOWN_CHARACTERS = 12;
export const API_KEY_NAME_MAX_LENGTH = 100;

/** POST /api/api-keys */
export const createApiKeyRequestSchema = z.strictObject({
  name: z
    .string({ error: "must be a string" })
    .trim()
    .min(1, "must not be empty")
    .max(API_KEY_NAME_MAX_LENGTH, `must be at most ${API_KEY_NAME_MAX_LENGTH} characters`),
  expiresAt: z.iso
    .datetime({ offset: true, error: "must be an ISO date and time, e.g. 2030-01-31T00:00:00Z" })
    .refine((value) => Date.parse(value) > Date.now(), "must be in the future")
    .optional(),
});
export type CreateApiKeyRequest = z.input<typeof createApiKeyRequestSchema>;

/** A key in GET /api/api-keys: never the key or its hash. */
export interface ApiKeySummary {
  id: string;
  name: string;
  /** The key's first characters (`trl_ab12cd34`), to tell keys apart. */
  prefix: string;
  createdAt: string;
  lastUsedAt: string | null;
  expiresAt: string | null;
}

/** The answer of POST /api/api-keys (201): the only time `key` is shown. */
export interface CreatedApiKey {
  id: string;
  name: string;
  prefix: string;
  key: string;
  createdAt: string;
  expiresAt: string | null;
}
