import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { WEBHOOK_DELIVERIES_KEPT } from "@/contract";
import { startWebhookTestKit, type WebhookTestKit } from "./__fixtures__/webhook-test-kit";
import { signWebhookBody } from "./webhook-signature";

let t: WebhookTestKit;

beforeAll(async () => {
  t = await startWebhookTestKit();
});
afterAll(() => t.close());

const keyed = (key: string, value: unknown = { name: "Keyed" }) => ({
  body: JSON.stringify(value),
  headers: { "content-type": "application/json", "idempotency-key": key },
});

const runIdOf = async (response: Response) => ((await response.json()) as { runId: string }).runId;

describe("Idempotency-Key", () => {
  it("answers a repeat with the first run's id and the replay header, starting nothing", async () => {
    const workflowId = await t.createEchoWorkflow();
    const hook = await t.createHook(workflowId);
    const first = await t.deliver(hook.id, keyed("order-1001"));
    expect(first.status).toBe(202);
    expect(first.headers.get("idempotent-replayed")).toBeNull();
    const runId = await runIdOf(first);

    const repeat = await t.deliver(hook.id, keyed("order-1001", { name: "Changed" }));
    expect(repeat.status).toBe(202);
    expect(repeat.headers.get("idempotent-replayed")).toBe("true");
    expect(await runIdOf(repeat)).toBe(runId);
    // Another key, or the same key on another hook, is another delivery.
    expect(await runIdOf(await t.deliver(hook.id, keyed("order-1002")))).not.toBe(runId);
    const otherHook = await t.createHook(workflowId);
    expect(await runIdOf(await t.deliver(otherHook.id, keyed("order-1001")))).not.toBe(runId);

    expect(await t.runCount(workflowId)).toBe(3);
    expect((await t.finished(runId)).output).toMatchObject({ greeting: "Hello Keyed" });
    const deliveries = await t.deliveries(hook.id);
    expect(deliveries.map(({ status, runId: id, replayed }) => ({ status, same: id === runId, replayed }))).toEqual([
      { status: 202, same: false, replayed: false },
      { status: 202, same: true, replayed: true },
      { status: 202, same: true, replayed: false },
    ]);
  });

  it("starts exactly one run for concurrent deliveries with one key", async () => {
    const workflowId = await t.createEchoWorkflow();
    const hook = await t.createHook(workflowId);
    const answers = await Promise.all(Array.from({ length: 5 }, () => t.deliver(hook.id, keyed("burst-1"))));
    expect(answers.map((answer) => answer.status)).toEqual([202, 202, 202, 202, 202]);
    const runIds = await Promise.all(answers.map(runIdOf));
    expect(new Set(runIds).size).toBe(1);
    expect(answers.filter((answer) => answer.headers.get("idempotent-replayed") === "true")).toHaveLength(4);
    expect(await t.runCount(workflowId)).toBe(1);
  });

  it("starts a new run for a key last used more than 24 hours ago", async () => {
    const workflowId = await t.createEchoWorkflow();
    const hook = await t.createHook(workflowId);
    const first = await runIdOf(await t.deliver(hook.id, keyed("daily")));
    await t.kit.database.prisma.webhookDelivery.updateMany({
      where: { webhookId: hook.id, runId: first },
      data: { receivedAt: new Date(Date.now() - 25 * 60 * 60 * 1000) },
    });
    const later = await t.deliver(hook.id, keyed("daily"));
    expect(later.headers.get("idempotent-replayed")).toBeNull();
    const second = await runIdOf(later);
    expect(second).not.toBe(first);
    expect(await runIdOf(await t.deliver(hook.id, keyed("daily")))).toBe(second);
    expect(await t.runCount(workflowId)).toBe(2);
  });

  it("is not used up by a refused delivery: after a 409 not_deployed, the same key starts the run once deployed", async () => {
    const workflowId = await t.createEchoWorkflow({ deploy: false });
    const hook = await t.createHook(workflowId);
    expect((await t.deliver(hook.id, keyed("retry-me"))).status).toBe(409);
    // Refused before reading it: a bad signature or body never claims the key either.
    expect(
      (
        await t.deliver(hook.id, {
          body: "[]",
          headers: { "content-type": "application/json", "idempotency-key": "retry-me" },
        })
      ).status,
    ).toBe(400);
    await t.kit.database.repositories.deployments.create(t.workspaceId, workflowId, {
      document: (await import("./__fixtures__/webhook-test-kit")).echoDocument() as never,
      workflowVersion: 1,
      note: "",
      createdById: null,
    });
    const accepted = await t.deliver(hook.id, keyed("retry-me"));
    expect(accepted.status).toBe(202);
    expect(accepted.headers.get("idempotent-replayed")).toBeNull();
    expect(await t.runCount(workflowId)).toBe(1);
  });

  it("refuses a key that is too long or not printable ASCII, starting nothing", async () => {
    const workflowId = await t.createEchoWorkflow();
    const hook = await t.createHook(workflowId);
    for (const key of ["k".repeat(256), "clé"]) {
      const response = await t.deliver(hook.id, keyed(key));
      expect(response.status).toBe(400);
      expect(JSON.stringify(await response.json())).toContain(
        "The Idempotency-Key header must be 1 to 255 printable ASCII characters",
      );
    }
    expect(await t.runCount(workflowId)).toBe(0);
  });
});

describe("deliveries", () => {
  it(`keeps and lists the last ${WEBHOOK_DELIVERIES_KEPT}, newest first, with status, run and error`, async () => {
    const workflowId = await t.createEchoWorkflow();
    const hook = await t.createHook(workflowId);
    const runIds: string[] = [];
    for (let index = 0; index < 22; index++)
      runIds.push(
        await runIdOf(
          await t.deliver(hook.id, {
            body: JSON.stringify({ name: `n${index}` }),
            headers: { "content-type": "application/json" },
          }),
        ),
      );
    const refused = await t.deliver(hook.id, { body: "[]", headers: { "content-type": "application/json" } });
    expect(refused.status).toBe(400);

    const listed = await t.deliveries(hook.id);
    expect(listed).toHaveLength(WEBHOOK_DELIVERIES_KEPT);
    expect(listed[0]).toMatchObject({ status: 400, runId: null, replayed: false });
    expect(listed[0]!.error).toContain("must be a JSON object");
    expect(listed.slice(1).map((delivery) => delivery.runId)).toEqual(runIds.slice(-19).reverse());
    expect(listed.slice(1).every((delivery) => delivery.status === 202 && delivery.error === null)).toBe(true);
    // Older ones are deleted, not only hidden.
    expect(await t.kit.database.prisma.webhookDelivery.count({ where: { webhookId: hook.id } })).toBe(
      WEBHOOK_DELIVERIES_KEPT,
    );
    await Promise.all(runIds.map((id) => t.finished(id)));
  });

  it("never shows or stores a hook's secret in the clear: not in an answer, a delivery or a refusal", async () => {
    const workflowId = await t.createEchoWorkflow();
    const secret = "plain-secret-4f1c9a";
    const hook = await t.createHook(workflowId, { secret });
    const seen: string[] = [JSON.stringify(hook)];
    const body = JSON.stringify({ name: "quiet" });
    const answers = [
      await t.deliver(hook.id, {
        body,
        headers: { "content-type": "application/json", "x-trellis-signature": "sha256=" + "0".repeat(64) },
      }),
      await t.deliver(hook.id, {
        body,
        headers: {
          "content-type": "application/json",
          "x-trellis-signature": signWebhookBody(secret, new TextEncoder().encode(body)),
        },
      }),
    ];
    for (const answer of answers) seen.push(await answer.text());
    seen.push(
      JSON.stringify(
        await (await t.hooks.list(new Request("http://localhost/x"), { id: workflowId }, t.editor)).json(),
      ),
    );
    seen.push(JSON.stringify(await t.deliveries(hook.id)));
    const rows = await t.kit.database.prisma.webhookDelivery.findMany({ where: { webhookId: hook.id } });
    seen.push(JSON.stringify(rows));
    const stored = await t.kit.database.prisma.webhook.findUniqueOrThrow({ where: { id: hook.id } });
    seen.push(Buffer.from(stored.secretCiphertext!).toString("latin1"));
    expect(seen.join("\n")).not.toContain(secret);
    expect(answers.map((answer) => answer.status)).toEqual([401, 202]);
    await t.finished(JSON.parse(seen[2]!).runId);
  });
});
