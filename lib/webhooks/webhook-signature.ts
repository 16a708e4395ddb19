import "server-only";
import { createHmac, timingSafeEqual } from "node:crypto";
import { WEBHOOK_SIGNATURE_HEADER } from "@/contract";
import { RequestError } from "@/lib/http/errors";

const SIGNATURE_PATTERN = /^sha256=([0-9a-f]{64})$/i;

/** `sha256=<hex HMAC-SHA256 of the raw body>`, what `openssl dgst -sha256 -hmac "$SECRET"` prints in hex. */
export function signWebhookBody(secret: string, body: Uint8Array): string {
  return `sha256=${createHmac("sha256", secret).update(body).digest("hex")}`;
}

/**
 * Checks the signature header of a hook with a secret against the raw body it came with, in
 * constant time. A missing, malformed or wrong signature is refused with 401 `invalid_signature`;
 * the message says what was wrong with it, never what the right one would be.
 */
export function verifyWebhookSignature(secret: string, body: Uint8Array, header: string | null): void {
  if (header === null || header.trim() === "") {
    throw new RequestError(
      "invalid_signature",
      `This hook requires a signature: send ${WEBHOOK_SIGNATURE_HEADER}: sha256=<hex HMAC-SHA256 of the raw body, keyed with the hook's secret>.`,
      [{ path: WEBHOOK_SIGNATURE_HEADER, message: "is missing" }],
    );
  }
  const match = SIGNATURE_PATTERN.exec(header.trim());
  if (!match) {
    throw new RequestError("invalid_signature", `The ${WEBHOOK_SIGNATURE_HEADER} header must be "sha256=" followed by 64 hexadecimal characters.`, [
      { path: WEBHOOK_SIGNATURE_HEADER, message: "is malformed" },
    ]);
  }
  const expected = createHmac("sha256", secret).update(body).digest();
  const given = Buffer.from(match[1]!, "hex");
  if (!timingSafeEqual(expected, given)) {
    throw new RequestError(
      "invalid_signature",
      `The ${WEBHOOK_SIGNATURE_HEADER} header does not match the body: sign the raw body exactly as sent, with the hook's secret.`,
      [{ path: WEBHOOK_SIGNATURE_HEADER, message: "does not match the body" }],
    );
  }
}
