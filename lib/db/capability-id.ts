import { randomBytes } from "node:crypto";

/**
 * An id that is also a credential (a webhook's URL, a public chat's link): 192 random bits, where a
 * UUIDv7 has 74 and shows when it was made.
 */
export function capabilityId(): string {
  return randomBytes(24).toString("base64url");
}
