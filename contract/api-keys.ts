import { z } from "zod";
import { pageSchema } from "./pagination";
import { timestampSchema } from "./timestamp";

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
export const apiKeySummarySchema = z.object({
  id: z.string(),
  name: z.string(),
  prefix: z.string().describe("The key's first characters, to tell keys apart."),
  createdAt: timestampSchema,
  lastUsedAt: timestampSchema.nullable(),
  expiresAt: timestampSchema.nullable(),
});
export type ApiKeySummary = z.infer<typeof apiKeySummarySchema>;

export const apiKeyPageSchema = pageSchema("apiKeys", apiKeySummarySchema);

/** The answer of POST /api/api-keys (201): the only time `key` is shown. */
export const createdApiKeySchema = z.object({
  id: z.string(),
  name: z.string(),
  prefix: z.string(),
  key: z.string().describe("The key itself, shown this once: only its SHA-256 hash is stored."),
  createdAt: timestampSchema,
  expiresAt: timestampSchema.nullable(),
});
export type CreatedApiKey = z.infer<typeof createdApiKeySchema>;
