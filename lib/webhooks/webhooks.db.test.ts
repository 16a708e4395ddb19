import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApiClient, WEBHOOK_MAX_BODY_BYTES, type WebhookRunResult, type WebhookSummary } from "@/contract";
import { createDispatcher } from "@/lib/http/dispatch";
import { testMember } from "@/lib/http/test-members";
import { startWebhookTestKit, type WebhookTestKit } from "./__fixtures__/webhook-test-kit";
import { signWebhookBody } from "./webhook-signature";

let t: WebhookTestKit;

beforeAll(async () => {
  t = await startWebhookTestKit();
});
afterAll(() => t.close());

const json = (value: unknown) => ({ body: JSON.stringify(value), headers: { "content-type": "application/json" } });

async function errorOf(response: Response): Promise<{ code: string; message: string }> {
  return ((await response.json()) as { error: { code: string; message: string } }).error;
}

describe("a webhook's delivery starts the active deployment", () => {
  it("maps a JSON object's fields to the start inputs, answers 202 with the run, and records trigger and deployment", async () => {
    const workflowId = await t.createEchoWorkflow();
    const hook = await t.createHook(workflowId);
    expect(hook.url).toBe(`/api/hooks/${hook.id}`);

    const response = await t.deliver(hook.id, json({ name: "Ada", count: 3, extra: { nested: true } }));
    expect(response.status).toBe(202);
    expect(response.headers.get("access-control-allow-origin")).toBe("*");
    const { runId } = (await response.json()) as { runId: string };
    const run = await t.finished(runId);
    expect(run).toMatchObject({
      status: "succeeded",
      output: { greeting: "Hello Ada", count: 3 },
      trigger: { kind: "webhook" },
    });
    // The hook's id is its credential: runs, which viewers read, do not show it.
    expect(JSON.stringify(run)).not.toContain(hook.id);
    expect(run.input).toEqual({ name: "Ada", count: 3, extra: { nested: true } });
    const active = await t.kit.database.repositories.deployments.active(t.workspaceId, workflowId);
    expect(run.deploymentId).toBe(active!.id);
  });

  it("maps URL-encoded and multipart form fields to the start inputs (text coerced to the declared number)", async () => {
    const workflowId = await t.createEchoWorkflow();
    const hook = await t.createHook(workflowId);

    const encoded = await t.deliver(hook.id, {
      body: "name=Grace+Hopper&count=7",
      headers: { "content-type": "application/x-www-form-urlencoded" },
    });
    expect(encoded.status).toBe(202);
    const fromForm = await t.finished(((await encoded.json()) as { runId: string }).runId);
    expect(fromForm.output).toEqual({ greeting: "Hello Grace Hopper", count: 7 });

    const form = new FormData();
    form.append("name", "Linus");
    form.append("tag", "a");
    form.append("tag", "b");
    const multipart = await t.deliver(hook.id, { body: form });
    expect(multipart.status).toBe(202);
    const fromMultipart = await t.finished(((await multipart.json()) as { runId: string }).runId);
    expect(fromMultipart.output).toEqual({ greeting: "Hello Linus", count: 1 });
    expect(fromMultipart.input).toEqual({ name: "Linus", tag: ["a", "b"] });
  });

  it("with wait, answers 200 and the finished run", async () => {
    const workflowId = await t.createEchoWorkflow();
    const hook = await t.createHook(workflowId, { wait: true });
    const response = await t.deliver(hook.id, json({ name: "Wanda" }));
    expect(response.status).toBe(200);
    // The outcome only: whoever holds the URL does not see the trace (block inputs, outputs, costs).
    const run = (await response.json()) as WebhookRunResult;
    expect(run).toEqual({
      runId: run.runId,
      status: "succeeded",
      output: { greeting: "Hello Wanda", count: 1 },
      error: null,
    });
    expect((await t.deliveries(hook.id))[0]).toMatchObject({ status: 200, runId: run.runId, replayed: false });
  });

  it("with a secret, starts a run only for a body signed with it (401 for a missing, malformed or wrong signature)", async () => {
    const workflowId = await t.createEchoWorkflow();
    const secret = "whsec-correct-horse-battery";
    const hook = await t.createHook(workflowId, { secret });
    const body = JSON.stringify({ name: "Signed" });
    const headers = { "content-type": "application/json" };

    const refusals = [
      await t.deliver(hook.id, { body, headers }),
      await t.deliver(hook.id, { body, headers: { ...headers, "x-trellis-signature": "md5=abc" } }),
      await t.deliver(hook.id, {
        body,
        headers: {
          ...headers,
          "x-trellis-signature": signWebhookBody("another secret", new TextEncoder().encode(body)),
        },
      }),
      // Signed for other bytes: the signature covers the raw body, not its meaning.
      await t.deliver(hook.id, {
        body: `${body} `,
        headers: { ...headers, "x-trellis-signature": signWebhookBody(secret, new TextEncoder().encode(body)) },
      }),
    ];
    for (const refused of refusals) {
      expect(refused.status).toBe(401);
      expect((await errorOf(refused)).code).toBe("invalid_signature");
    }
    expect(await t.runCount(workflowId)).toBe(0);

    const signed = await t.deliver(hook.id, {
      body,
      headers: { ...headers, "x-trellis-signature": signWebhookBody(secret, new TextEncoder().encode(body)) },
    });
    expect(signed.status).toBe(202);
    const run = await t.finished(((await signed.json()) as { runId: string }).runId);
    expect(run.output).toMatchObject({ greeting: "Hello Signed" });
    expect(await t.runCount(workflowId)).toBe(1);
    expect((await t.deliveries(hook.id)).map((delivery) => delivery.status)).toEqual([202, 401, 401, 401, 401]);
  });
});

describe("a webhook refuses bad input, recording it and running nothing", () => {
  it("answers 404 for an unknown hook and runs nothing", async () => {
    const workflowId = await t.createEchoWorkflow();
    const response = await t.deliver("0190d3a8-0000-7000-8000-000000000000", json({ name: "nobody" }));
    expect(response.status).toBe(404);
    expect(await errorOf(response)).toMatchObject({ code: "not_found" });
    expect(
      await t.kit.database.prisma.run.count({
        where: { triggerKind: "webhook", workspaceId: t.workspaceId, workflowId },
      }),
    ).toBe(0);
  });

  it("answers 413 naming the limit for a body over 1 MB, declared or streamed", async () => {
    const workflowId = await t.createEchoWorkflow();
    const hook = await t.createHook(workflowId);
    const big = JSON.stringify({ name: "x".repeat(WEBHOOK_MAX_BODY_BYTES) });
    const declared = await t.deliver(hook.id, {
      body: big,
      headers: { "content-type": "application/json", "content-length": String(big.length) },
    });
    expect(declared.status).toBe(413);
    expect((await errorOf(declared)).message).toContain("1 MB limit");
    // Streamed without a length: counted as it arrives.
    const chunks = new TextEncoder().encode(big);
    const stream = new ReadableStream<Uint8Array>({
      start(controller) {
        for (let offset = 0; offset < chunks.length; offset += 64 * 1024)
          controller.enqueue(chunks.slice(offset, offset + 64 * 1024));
        controller.close();
      },
    });
    const response = await t.hooks.receive(
      new Request(`http://localhost/api/hooks/${hook.id}`, {
        method: "POST",
        body: stream,
        headers: { "content-type": "application/json" },
        duplex: "half",
      } as RequestInit),
      { hookId: hook.id },
    );
    expect(response.status).toBe(413);
    expect(await t.runCount(workflowId)).toBe(0);
    expect((await t.deliveries(hook.id)).map((delivery) => delivery.status)).toEqual([413, 413]);
  });

  it("answers 400 for a body that is not an object (array, string, null), naming what it got", async () => {
    const workflowId = await t.createEchoWorkflow();
    const hook = await t.createHook(workflowId);
    for (const [body, got] of [
      ["[1,2]", "an array"],
      ['"hello"', "a string"],
      ["null", "null"],
    ] as const) {
      const response = await t.deliver(hook.id, { body, headers: { "content-type": "application/json" } });
      expect(response.status).toBe(400);
      expect((await errorOf(response)).message).toContain(
        `must be a JSON object, whose fields become the run's inputs; got ${got}`,
      );
    }
    const broken = await t.deliver(hook.id, { body: "{not json", headers: { "content-type": "application/json" } });
    expect(broken.status).toBe(400);
    expect(await errorOf(broken)).toMatchObject({ code: "invalid_json" });
    expect(await t.runCount(workflowId)).toBe(0);
  });

  it("answers 415 for another media type and 400 for a reserved input name or a file field", async () => {
    const workflowId = await t.createEchoWorkflow();
    const hook = await t.createHook(workflowId);
    const text = await t.deliver(hook.id, { body: "name=x", headers: { "content-type": "text/plain" } });
    expect(text.status).toBe(415);
    expect((await errorOf(text)).message).toBe(
      "The webhook body is text/plain; send application/json, application/x-www-form-urlencoded or multipart/form-data.",
    );
    const reserved = await t.deliver(hook.id, json({ constructor: "x" }));
    expect(reserved.status).toBe(400);
    expect((await errorOf(reserved)).message).toContain('"constructor" is a reserved name');
    const proto = await t.deliver(hook.id, {
      body: '{"__proto__":{"polluted":1}}',
      headers: { "content-type": "application/json" },
    });
    expect(proto.status).toBe(400);
    const reservedField = await t.deliver(hook.id, {
      body: "prototype=1",
      headers: { "content-type": "application/x-www-form-urlencoded" },
    });
    expect(reservedField.status).toBe(400);
    const form = new FormData();
    form.append("upload", new Blob(["bytes"]), "a.bin");
    const file = await t.deliver(hook.id, { body: form });
    expect(file.status).toBe(400);
    expect((await errorOf(file)).message).toBe('The form field "upload" is a file; a hook takes text fields only.');
    expect(await t.runCount(workflowId)).toBe(0);
  });

  it("answers 409 not_deployed when the workflow has no deployment, and records it", async () => {
    const workflowId = await t.createEchoWorkflow({ deploy: false });
    const hook = await t.createHook(workflowId);
    const response = await t.deliver(hook.id, json({ name: "early" }));
    expect(response.status).toBe(409);
    expect(await errorOf(response)).toMatchObject({ code: "not_deployed" });
    expect(await t.runCount(workflowId)).toBe(0);
    const [delivery] = await t.deliveries(hook.id);
    expect(delivery).toMatchObject({ status: 409, runId: null, replayed: false });
    expect(delivery!.error).toContain("has no deployment yet");
  });
});

describe("managing hooks", () => {
  it("lists a workflow's hooks with their URL, whether they have a secret and wait, and deletes one (its URL then answers 404)", async () => {
    const workflowId = await t.createEchoWorkflow();
    const plain = await t.createHook(workflowId);
    const signed = await t.createHook(workflowId, { secret: "listed-secret-value", wait: true });
    const listed = await t.hooks.list(
      new Request(`http://localhost/api/workflows/${workflowId}/webhooks`),
      { id: workflowId },
      t.editor,
    );
    const body = (await listed.json()) as { webhooks: WebhookSummary[]; nextCursor: string | null };
    expect(body.webhooks.map(({ id, url, hasSecret, wait }) => ({ id, url, hasSecret, wait }))).toEqual([
      { id: signed.id, url: `/api/hooks/${signed.id}`, hasSecret: true, wait: true },
      { id: plain.id, url: `/api/hooks/${plain.id}`, hasSecret: false, wait: false },
    ]);
    expect(body.nextCursor).toBeNull();

    const removed = await t.hooks.remove(
      new Request(`http://localhost/api/webhooks/${plain.id}`, { method: "DELETE" }),
      { id: plain.id },
      t.editor,
    );
    expect(removed.status).toBe(204);
    expect((await t.deliver(plain.id, json({ name: "gone" }))).status).toBe(404);
    expect(await t.runCount(workflowId)).toBe(0);
  });

  it("lets a viewer neither list (a hook's URL is its credential) nor create or delete, hides another workspace's hooks, and refuses a bad create", async () => {
    const workflowId = await t.createEchoWorkflow();
    const hook = await t.createHook(workflowId);
    const viewer = testMember(t.workspaceId, "viewer");
    const stranger = testMember(await t.kit.database.createWorkspace(), "owner");
    const post = (body: unknown) =>
      new Request(`http://localhost/api/workflows/${workflowId}/webhooks`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify(body),
      });

    expect((await t.hooks.create(post({}), { id: workflowId }, viewer)).status).toBe(403);
    expect(
      (await t.hooks.remove(new Request("http://localhost/x", { method: "DELETE" }), { id: hook.id }, viewer)).status,
    ).toBe(403);
    expect((await t.hooks.list(new Request("http://localhost/x"), { id: workflowId }, viewer)).status).toBe(403);
    expect((await t.deliveries(hook.id, viewer)).length).toBe(0);

    expect((await t.hooks.create(post({}), { id: workflowId }, stranger)).status).toBe(404);
    expect((await t.hooks.list(new Request("http://localhost/x"), { id: workflowId }, stranger)).status).toBe(404);
    expect((await t.hooks.deliveries(new Request("http://localhost/x"), { id: hook.id }, stranger)).status).toBe(404);
    expect(
      (await t.hooks.remove(new Request("http://localhost/x", { method: "DELETE" }), { id: hook.id }, stranger)).status,
    ).toBe(404);

    const empty = await t.hooks.create(post({ secret: "" }), { id: workflowId }, t.editor);
    expect(empty.status).toBe(400);
    expect((await errorOf(empty)).message).toContain("secret");
    expect((await t.hooks.create(post({ wait: "yes" }), { id: workflowId }, t.editor)).status).toBe(400);
  });

  it("are reached by the API client: create, list, deliveries, delete", async () => {
    const serve = async (input: RequestInfo | URL, init?: RequestInit) => {
      const request = new Request(new URL(String(input), "http://localhost"), init);
      const { pathname } = new URL(request.url);
      const ofWorkflow = /^\/api\/workflows\/([^/]+)\/webhooks$/.exec(pathname);
      if (ofWorkflow)
        return (request.method === "POST" ? t.hooks.create : t.hooks.list)(request, { id: ofWorkflow[1]! }, t.editor);
      const deliveries = /^\/api\/webhooks\/([^/]+)\/deliveries$/.exec(pathname);
      if (deliveries) return t.hooks.deliveries(request, { id: deliveries[1]! }, t.editor);
      const hook = /^\/api\/webhooks\/([^/]+)$/.exec(pathname);
      if (hook && request.method === "DELETE") return t.hooks.remove(request, { id: hook[1]! }, t.editor);
      return new Response(null, { status: 404 });
    };
    const api = createApiClient({ fetch: serve as typeof fetch });
    const workflowId = await t.createEchoWorkflow();
    const created = await api.webhooks.create(workflowId, { secret: "client-secret", wait: false });
    expect(created).toEqual({ id: expect.any(String), url: `/api/hooks/${created.id}` });
    expect((await api.webhooks.list(workflowId)).map((hook) => [hook.id, hook.hasSecret])).toEqual([
      [created.id, true],
    ]);
    expect(await api.webhooks.deliveries(created.id)).toEqual([]);
    await api.webhooks.remove(created.id);
    expect(await api.webhooks.list(workflowId)).toEqual([]);
    await expect(api.webhooks.remove(created.id)).rejects.toMatchObject({ status: 404, code: "not_found" });
  });

  it("answers a browser's preflight from any site, as its declaration says", async () => {
    const nobody = { caller: async () => null, workspace: async () => Promise.reject(new Error("no workspace")) };
    const dispatch = createDispatcher(Object.values(t.hooks), { identify: nobody });
    const response = await dispatch(
      new Request("http://localhost/api/hooks/x", {
        method: "OPTIONS",
        headers: { origin: "https://elsewhere.example", "access-control-request-method": "POST" },
      }),
    );
    expect(response.status).toBe(204);
    expect(response.headers.get("access-control-allow-origin")).toBe("*");
    expect(response.headers.get("access-control-allow-methods")).toBe("POST, OPTIONS");
    expect(response.headers.get("access-control-allow-headers")).toContain("x-trellis-signature");
    expect(response.headers.get("access-control-allow-headers")).toContain("idempotency-key");
  });
});
