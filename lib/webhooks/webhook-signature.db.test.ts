import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { webhookEndpoints } from "./webhook-endpoints";
import { SeenSignatures } from "./seen-signatures";
import { startWebhookTestKit, type WebhookTestKit } from "./__fixtures__/webhook-test-kit";
import { WebhookDeliveryRepository } from "./webhook-delivery-repository";
import { WebhookRepository } from "./webhook-repository";
import {
  DEFAULT_WEBHOOK_TOLERANCE_S,
  signWebhookBody,
  signWebhookDelivery,
  webhookToleranceFromEnvironment,
} from "./webhook-signature";
import { auditRequestsTo } from "@/lib/audit";

/** Timestamped webhook signatures (`t=<unix>,v1=<hmac of "t.body">`) over a real database and runtime. */

let t: WebhookTestKit;
const SECRET = "whsec-timestamped-correct-horse";

beforeAll(async () => {
  t = await startWebhookTestKit();
});
afterAll(() => t.close());

const bytes = (text: string) => new TextEncoder().encode(text);
const nowS = () => Math.floor(t.clock.now / 1000);

async function signedHook(): Promise<{ workflowId: string; hookId: string }> {
  const workflowId = await t.createEchoWorkflow();
  const hook = await t.createHook(workflowId, { secret: SECRET });
  return { workflowId, hookId: hook.id };
}

const deliverSigned = (hookId: string, body: string, signature: string) =>
  t.deliver(hookId, { body, headers: { "content-type": "application/json", "x-trellis-signature": signature } });

async function errorOf(
  response: Response,
): Promise<{ code: string; message: string; details: Array<{ path: string; message: string }> }> {
  return (
    (await response.json()) as {
      error: { code: string; message: string; details: Array<{ path: string; message: string }> };
    }
  ).error;
}

describe("a timestamped signature", () => {
  it("is accepted when it matches and is fresh, and the run starts", async () => {
    const { workflowId, hookId } = await signedHook();
    const body = JSON.stringify({ name: "Stamped" });
    const response = await deliverSigned(hookId, body, signWebhookDelivery(SECRET, bytes(body), nowS()));
    expect(response.status).toBe(202);
    const run = await t.finished(((await response.json()) as { runId: string }).runId);
    expect(run.output).toMatchObject({ greeting: "Hello Stamped" });
    expect(await t.runCount(workflowId)).toBe(1);
    // A sender rotating its secret may send several v1 signatures: one matching is enough.
    const rotated = signWebhookDelivery(SECRET, bytes(body), nowS() - 1).replace(",v1=", `,v1=${"0".repeat(64)},v1=`);
    expect((await deliverSigned(hookId, body, rotated)).status).toBe(202);
  });

  it("is refused when older than the tolerance window or too far in the future, naming why; nothing runs", async () => {
    const { workflowId, hookId } = await signedHook();
    const body = JSON.stringify({ name: "Late" });
    const stale = await deliverSigned(
      hookId,
      body,
      signWebhookDelivery(SECRET, bytes(body), nowS() - DEFAULT_WEBHOOK_TOLERANCE_S - 30),
    );
    expect(stale.status).toBe(401);
    const staleError = await errorOf(stale);
    expect(staleError.code).toBe("invalid_signature");
    expect(staleError.message).toContain(`is ${DEFAULT_WEBHOOK_TOLERANCE_S + 30} seconds old`);
    expect(staleError.message).toContain(
      `at most ${DEFAULT_WEBHOOK_TOLERANCE_S} seconds old (TRELLIS_WEBHOOK_TOLERANCE_S)`,
    );
    expect(staleError.details).toEqual([{ path: "x-trellis-signature", message: "is too old" }]);

    const future = await deliverSigned(
      hookId,
      body,
      signWebhookDelivery(SECRET, bytes(body), nowS() + DEFAULT_WEBHOOK_TOLERANCE_S + 60),
    );
    expect(future.status).toBe(401);
    expect((await errorOf(future)).message).toContain("in the future");

    // The timestamp is signed: moving it to now without the secret breaks the signature.
    const moved = signWebhookDelivery(SECRET, bytes(body), nowS() - 10_000).replace(/^t=\d+/, `t=${nowS()}`);
    const forged = await deliverSigned(hookId, body, moved);
    expect(forged.status).toBe(401);
    expect((await errorOf(forged)).details).toEqual([
      { path: "x-trellis-signature", message: "does not match the body" },
    ]);
    expect(await t.runCount(workflowId)).toBe(0);
  });

  it("is good once: a replay within the window is refused, also by another receiver over the same database", async () => {
    const { workflowId, hookId } = await signedHook();
    const body = JSON.stringify({ name: "Once" });
    const signature = signWebhookDelivery(SECRET, bytes(body), nowS());
    expect((await deliverSigned(hookId, body, signature)).status).toBe(202);

    const replay = await deliverSigned(hookId, body, signature);
    expect(replay.status).toBe(401);
    const replayError = await errorOf(replay);
    expect(replayError.message).toContain("refused as a replay");
    expect(replayError.details).toEqual([{ path: "x-trellis-signature", message: "was already used" }]);

    // Another process: its own repositories and receiver, nothing shared but the database.
    const { prisma, repositories, secretKey } = t.kit.database;
    const elsewhere = webhookEndpoints(
      () => ({
        webhooks: new WebhookRepository(prisma, secretKey),
        deliveries: new WebhookDeliveryRepository(prisma),
        runs: t.kit.runtime.runs,
        repositories,
        signatures: {
          seen: new SeenSignatures(prisma),
          toleranceS: DEFAULT_WEBHOOK_TOLERANCE_S,
          now: () => t.clock.now,
        },
      }),
      auditRequestsTo(() => prisma),
    );
    const request = new Request(`http://localhost/api/hooks/${hookId}`, {
      method: "POST",
      body,
      headers: { "content-type": "application/json", "x-trellis-signature": signature },
    });
    expect((await elsewhere.receive(request, { hookId })).status).toBe(401);

    // Once the window has passed the clock refuses it, so it need not be remembered any longer.
    t.clock.now += (DEFAULT_WEBHOOK_TOLERANCE_S + 1) * 1000;
    try {
      const late = await deliverSigned(hookId, body, signature);
      expect((await errorOf(late)).details).toEqual([{ path: "x-trellis-signature", message: "is too old" }]);
      // A fresh signature of the same body is a new delivery.
      expect((await deliverSigned(hookId, body, signWebhookDelivery(SECRET, bytes(body), nowS()))).status).toBe(202);
    } finally {
      t.clock.now -= (DEFAULT_WEBHOOK_TOLERANCE_S + 1) * 1000;
    }
    expect(await t.runCount(workflowId)).toBe(2);
    expect((await t.deliveries(hookId)).map((delivery) => delivery.status)).toEqual([202, 401, 401, 401, 202]);
  });

  it("leaves the body-only form working, unbounded in time (the weaker form)", async () => {
    const { hookId } = await signedHook();
    const body = JSON.stringify({ name: "Plain" });
    const signature = signWebhookBody(SECRET, bytes(body));
    expect((await deliverSigned(hookId, body, signature)).status).toBe(202);
    // What makes it weaker: the same capture is accepted again, at any time.
    expect((await deliverSigned(hookId, body, signature)).status).toBe(202);
    const malformed = await deliverSigned(hookId, body, "t=soon,v1=abc");
    expect(malformed.status).toBe(401);
    expect((await errorOf(malformed)).message).toContain(
      '"t=<unix seconds>,v1=<64 hexadecimal characters>" or "sha256=<64 hexadecimal characters>"',
    );
  });
});

describe("TRELLIS_WEBHOOK_TOLERANCE_S", () => {
  it("defaults to 300 seconds, takes whole seconds up to a day, and refuses anything else naming the setting", () => {
    expect(webhookToleranceFromEnvironment(undefined)).toBe(300);
    expect(webhookToleranceFromEnvironment(" 60 ")).toBe(60);
    for (const bad of ["0", "-5", "1.5", "ten", "86401"]) {
      expect(() => webhookToleranceFromEnvironment(bad)).toThrow(
        /TRELLIS_WEBHOOK_TOLERANCE_S must be a whole number of seconds from 1 to 86400/,
      );
    }
  });
});
