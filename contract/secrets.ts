import { z } from "zod";
import { pageSchema } from "./pagination";
import { timestampSchema } from "./timestamp";

/** Secrets over the API (docs/CONTRACT.md section 8): names and dates out, values only in. */

/** The largest value a secret may hold, in UTF-8 bytes. */
export const MAX_SECRET_VALUE_BYTES = 64 * 1024;

/** What a secret's name must look like: what `{{NAME}}` references, like an environment variable. */
export const SECRET_NAME_RULE =
  "must match [A-Z_][A-Z0-9_]* (capital letters, digits and _, not starting with a digit), at most 128 characters";

/** The `:name` of /api/secrets/:name. */
export const secretNameSchema = z
  .string()
  .max(128, SECRET_NAME_RULE)
  .regex(/^[A-Z_][A-Z0-9_]*$/, SECRET_NAME_RULE);

/** PUT /api/secrets/:name: creates the secret or replaces its value. */
export const putSecretRequestSchema = z.strictObject({
  value: z
    .string({ error: "must be a string" })
    .min(1, "must not be empty")
    .refine(
      (value) => new TextEncoder().encode(value).length <= MAX_SECRET_VALUE_BYTES,
      `must be at most ${MAX_SECRET_VALUE_BYTES / 1024} KB`,
    ),
});
export type PutSecretRequest = z.infer<typeof putSecretRequestSchema>;

/** A secret in GET /api/secrets: never its value. */
export const secretListEntrySchema = z.object({ name: z.string(), updatedAt: timestampSchema });
export type SecretListEntry = z.infer<typeof secretListEntrySchema>;

export const secretPageSchema = pageSchema("secrets", secretListEntrySchema);

/** GET /api/env-names: the names `{{` completes to. */
export const envNamesSchema = z.object({
  names: z
    .array(z.string())
    .describe("Stored secret names and the set variables of TRELLIS_WORKFLOW_ENV; never values."),
});
