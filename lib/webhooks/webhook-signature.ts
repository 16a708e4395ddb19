import "server-only";
import { createHmac, timingSafeEqual } from "node:crypto";
import { WEBHOOK_SIGNATURE_HEADER } from "@/contract";
import { TrellisError } from "@/executor";
import { RequestError } from "@/lib/http/errors";

/**
 * The two forms of a hook's signature header (docs/CONTRACT.md section 9):
 *
 * - `t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<raw body>">`, as Stripe-style senders sign:
 *   the timestamp is covered, so a captured delivery is refused once it is older than the
 *   tolerance window, and within it the signature is remembered and refused a second time.
 * - `sha256=<hex HMAC-SHA256 of the raw body>`, for senders that cannot do better. Weaker: it
 *   never expires, so whoever captures one delivery can send it again at any time (an
 *   Idempotency-Key makes a repeat start nothing only when the sender sent one).
 */

const BODY_ONLY_PATTERN = /^sha256=([0-9a-f]{64})$/i;
const HEX_SIGNATURE = /^[0-9a-f]{64}$/i;
const TIMESTAMP = /^\d{1,12}$/;

export type VerifiedSignature = { form: "body-only" } | { form: "timestamped"; timestampS: number; signature: string };

export interface SignatureClock {
  /** Seconds a timestamped signature stays good, either side of the server's clock (TRELLIS_WEBHOOK_TOLERANCE_S). */
  toleranceS: number;
  now: () => number;
}

/** `sha256=<hex HMAC-SHA256 of the raw body>`, what `openssl dgst -sha256 -hmac "$SECRET"` prints in hex. */
export function signWebhookBody(secret: string, body: Uint8Array): string {
  return `sha256=${createHmac("sha256", secret).update(body).digest("hex")}`;
}

const timestampedMac = (secret: string, timestampS: number | string, body: Uint8Array) =>
  createHmac("sha256", secret).update(`${timestampS}.`).update(body).digest();

/** `t=<timestampS>,v1=<hex HMAC-SHA256 of "<timestampS>.<raw body>">`. */
export function signWebhookDelivery(secret: string, body: Uint8Array, timestampS: number): string {
  return `t=${timestampS},v1=${timestampedMac(secret, timestampS, body).toString("hex")}`;
}

const refuse = (message: string, problem: string): never => {
  throw new RequestError("invalid_signature", message, [{ path: WEBHOOK_SIGNATURE_HEADER, message: problem }]);
};

const sameBytes = (expected: Buffer, givenHex: string) => timingSafeEqual(expected, Buffer.from(givenHex, "hex"));

/** `t=...,v1=...[,v1=...]` read into its timestamp and signatures (several v1 while a secret is rotated); null when it is not that form. */
function parseTimestamped(header: string): { timestamp: string; signatures: string[] } | null {
  let timestamp: string | undefined;
  const signatures: string[] = [];
  for (const part of header.split(",")) {
    const at = part.indexOf("=");
    const [name, value] = [part.slice(0, at).trim(), part.slice(at + 1).trim()];
    if (name === "t") timestamp = value;
    else if (name === "v1") signatures.push(value);
  }
  if (
    timestamp === undefined ||
    !TIMESTAMP.test(timestamp) ||
    signatures.length === 0 ||
    !signatures.every((one) => HEX_SIGNATURE.test(one))
  )
    return null;
  return { timestamp, signatures };
}

/**
 * Checks the signature header of a hook with a secret against the raw body it came with, in
 * constant time, and a timestamped one against the clock. Refused with 401 `invalid_signature`
 * naming what was wrong (missing, malformed, not matching, too old or in the future), never what
 * the right signature would be. Replays are the caller's to refuse (the returned signature).
 */
export function verifyWebhookSignature(
  secret: string,
  body: Uint8Array,
  header: string | null,
  clock: SignatureClock,
): VerifiedSignature {
  const text = header?.trim() ?? "";
  if (text === "") {
    refuse(
      `This hook requires a signature: send ${WEBHOOK_SIGNATURE_HEADER}: t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<raw body>", keyed with the hook's secret> (or the weaker sha256=<hex HMAC-SHA256 of the raw body>).`,
      "is missing",
    );
  }
  const bodyOnly = BODY_ONLY_PATTERN.exec(text);
  if (bodyOnly) {
    if (!sameBytes(createHmac("sha256", secret).update(body).digest(), bodyOnly[1]!)) {
      refuse(
        `The ${WEBHOOK_SIGNATURE_HEADER} header does not match the body: sign the raw body exactly as sent, with the hook's secret.`,
        "does not match the body",
      );
    }
    return { form: "body-only" };
  }
  const timestamped = parseTimestamped(text);
  if (!timestamped) {
    return refuse(
      `The ${WEBHOOK_SIGNATURE_HEADER} header must be "t=<unix seconds>,v1=<64 hexadecimal characters>" or "sha256=<64 hexadecimal characters>".`,
      "is malformed",
    );
  }
  const expected = timestampedMac(secret, timestamped.timestamp, body);
  const signature = timestamped.signatures.find((one) => sameBytes(expected, one));
  if (!signature) {
    refuse(
      `The ${WEBHOOK_SIGNATURE_HEADER} header does not match: sign "<t>.<raw body>" (the timestamp, a dot, then the body exactly as sent) with the hook's secret.`,
      "does not match the body",
    );
  }
  const timestampS = Number(timestamped.timestamp);
  const age = Math.floor(clock.now() / 1000) - timestampS;
  if (age > clock.toleranceS) {
    refuse(
      `The signature's timestamp is ${age} seconds old; this server accepts signatures at most ${clock.toleranceS} seconds old (TRELLIS_WEBHOOK_TOLERANCE_S): sign each delivery, retries too, when it is sent.`,
      "is too old",
    );
  }
  if (-age > clock.toleranceS) {
    refuse(
      `The signature's timestamp is ${-age} seconds in the future, past the ${clock.toleranceS} seconds this server allows (TRELLIS_WEBHOOK_TOLERANCE_S): check the sender's clock.`,
      "is in the future",
    );
  }
  return { form: "timestamped", timestampS, signature: signature!.toLowerCase() };
}

/** The refusal of a timestamped signature already used within its window. */
export function replayedSignature(): RequestError {
  return new RequestError(
    "invalid_signature",
    `This signature was already used for a delivery to this hook, so this one is refused as a replay: sign each delivery, retries too, afresh (a new timestamp).`,
    [{ path: WEBHOOK_SIGNATURE_HEADER, message: "was already used" }],
  );
}

export const DEFAULT_WEBHOOK_TOLERANCE_S = 300;
const MAX_WEBHOOK_TOLERANCE_S = 24 * 3600;

/** TRELLIS_WEBHOOK_TOLERANCE_S: whole seconds, 1 to 86,400 (default 300); anything else is refused naming the setting. */
export function webhookToleranceFromEnvironment(text = process.env.TRELLIS_WEBHOOK_TOLERANCE_S): number {
  if (text === undefined || text.trim() === "") return DEFAULT_WEBHOOK_TOLERANCE_S;
  const seconds = Number(text.trim());
  if (!/^\d+$/.test(text.trim()) || seconds < 1 || seconds > MAX_WEBHOOK_TOLERANCE_S) {
    throw new TrellisError(
      "invalid_configuration",
      `TRELLIS_WEBHOOK_TOLERANCE_S must be a whole number of seconds from 1 to ${MAX_WEBHOOK_TOLERANCE_S}; it is "${text}".`,
    );
  }
  return seconds;
}
