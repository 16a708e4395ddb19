import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Member } from "@/lib/auth";
import { testMember } from "@/lib/http/test-members";
import { createKnowledgeService, type KnowledgeService } from "@/lib/knowledge/knowledge-service";
import { knowledgeEndpoints, type KnowledgeEndpoints } from "@/lib/knowledge/knowledge-endpoints";
import { startRunTestKit, type RunTestKit } from "@/lib/runs/__fixtures__/run-test-kit";
import { createWorkflowService } from "@/lib/workflows/service";
import { workflowEndpoints, type WorkflowEndpoints } from "@/lib/workflows/workflow-endpoints";
import { auditRequestsTo } from "@/lib/audit";

/**
 * What a page of another site can make a local user's browser send (a "simple" request: a form
 * or text/plain body, no preflight), and what DNS rebinding sends (a foreign Host), against the
 * real endpoints over a test database: each is refused and changes nothing.
 */

let kit: RunTestKit;
let workflows: WorkflowEndpoints;
let knowledge: KnowledgeService;
let knowledgeHttp: KnowledgeEndpoints;
let ws: string;
let member: Member;

beforeAll(async () => {
  kit = await startRunTestKit();
  ws = await kit.database.createWorkspace();
  member = testMember(ws, "editor");
  workflows = workflowEndpoints(
    () => createWorkflowService(kit.database.repositories),
    auditRequestsTo(() => kit.database.prisma),
  );
  knowledge = createKnowledgeService({ db: kit.database.prisma, envFor: async () => () => undefined });
  knowledgeHttp = knowledgeEndpoints(() => knowledge);
});
afterAll(async () => {
  await knowledge?.stop();
  await kit?.close();
});

const document = {
  name: "Cross-site",
  blocks: [
    {
      id: "start",
      type: "start",
      name: "Start",
      position: { x: 0, y: 0 },
      config: { inputs: [{ name: "message", type: "string" }] },
    },
    {
      id: "agent1",
      type: "agent",
      name: "Agent",
      position: { x: 200, y: 0 },
      config: { model: "offline/echo", userPrompt: "<start.message>" },
    },
  ],
  edges: [{ id: "e1", source: "start", target: "agent1" }],
};
const json = { "content-type": "application/json" };
const workflowCount = () => kit.database.prisma.workflow.count();
const runCount = () => kit.database.prisma.run.count();

function createWorkflow(init: RequestInit) {
  return workflows.create(new Request("http://localhost:3000/api/workflows", { method: "POST", ...init }), {}, member);
}

function startRun(workflowId: string, init: RequestInit) {
  return kit.endpoints.start(
    new Request(`http://localhost:3000/api/workflows/${workflowId}/runs`, { method: "POST", ...init }),
    { id: workflowId },
    member,
  );
}

async function codeOf(response: Response) {
  return ((await response.json()) as { error: { code: string } }).error.code;
}

async function storedWorkflow(): Promise<string> {
  return (await kit.database.repositories.workflows.create(ws, document as never)).id;
}

describe("a cross-site request changes nothing", () => {
  it("a text/plain POST of a valid workflow answers 415 and stores nothing", async () => {
    const before = await workflowCount();
    // What <form enctype="text/plain"> or fetch(url, { mode: "no-cors", body }) sends. A browser
    // adds the page's Origin (403, below); the media type alone refuses it too.
    const response = await createWorkflow({ body: JSON.stringify(document) });
    expect(response.status).toBe(415);
    expect(await response.json()).toMatchObject({
      error: { code: "unsupported_media_type", message: "The request body is text/plain; send application/json." },
    });
    const fromPage = await createWorkflow({
      headers: { origin: "https://evil.example" },
      body: JSON.stringify(document),
    });
    expect(fromPage.status).toBe(403);
    expect(await workflowCount()).toBe(before);
  });

  it("a form POST (url-encoded or multipart) answers 415 and stores nothing", async () => {
    const before = await workflowCount();
    const encoded = await createWorkflow({ body: new URLSearchParams({ [JSON.stringify(document)]: "" }) });
    expect(encoded.status).toBe(415);
    const form = new FormData();
    form.append("document", JSON.stringify(document));
    const multipart = await createWorkflow({ body: form });
    expect(multipart.status).toBe(415);
    expect(await codeOf(multipart)).toBe("unsupported_media_type");
    expect(await workflowCount()).toBe(before);
  });

  it("a JSON POST from another origin answers 403 and stores nothing", async () => {
    const before = await workflowCount();
    const response = await createWorkflow({
      headers: { origin: "https://evil.example", ...json },
      body: JSON.stringify(document),
    });
    expect(response.status).toBe(403);
    expect(await codeOf(response)).toBe("cross_site_request");
    expect(await workflowCount()).toBe(before);
  });

  it("a POST with Sec-Fetch-Site: cross-site and no Origin answers 403 and starts no run", async () => {
    const workflowId = await storedWorkflow();
    const before = await runCount();
    const response = await startRun(workflowId, { headers: { "sec-fetch-site": "cross-site", ...json }, body: "{}" });
    expect(response.status).toBe(403);
    expect(await runCount()).toBe(before);
  });

  it("a text/plain or cross-origin POST to start a run starts no run, and a cross-origin cancel is refused", async () => {
    const workflowId = await storedWorkflow();
    const before = await runCount();
    expect((await startRun(workflowId, { body: JSON.stringify({ input: { message: "hi" } }) })).status).toBe(415);
    expect((await startRun(workflowId, { headers: { origin: "https://evil.example" } })).status).toBe(403);
    expect(await runCount()).toBe(before);

    const { runId } = await kit.runtime.runs.start(ws, workflowId, { message: "hi" });
    const cancel = new Request(`http://localhost:3000/api/runs/${runId}/cancel`, {
      method: "POST",
      headers: { origin: "https://evil.example" },
    });
    const refused = await kit.endpoints.cancel(cancel, { id: runId }, member);
    expect(refused.status).toBe(403);
    expect(await codeOf(refused)).toBe("cross_site_request");
    await kit.runtime.runs.liveRun(runId)?.done;
  });
});

describe("a request with a foreign Host (DNS rebinding) is refused before anything runs", () => {
  const foreign = { host: "evil.example:3000" };

  it("starts no run, stores no workflow and reads nothing", async () => {
    const workflowId = await storedWorkflow();
    const [workflowsBefore, runsBefore] = [await workflowCount(), await runCount()];
    // Same-origin to the rebound page: Origin equals the (foreign) Host, so only the Host check stops it.
    const rebound = { ...foreign, origin: "http://evil.example:3000", ...json };
    const run = await startRun(workflowId, {
      headers: rebound,
      body: JSON.stringify({ input: { message: "hi" }, wait: true }),
    });
    expect(run.status).toBe(421);
    expect(await codeOf(run)).toBe("host_not_allowed");
    expect((await createWorkflow({ headers: rebound, body: JSON.stringify(document) })).status).toBe(421);
    expect([await workflowCount(), await runCount()]).toEqual([workflowsBefore, runsBefore]);

    const read = await workflows.get(
      new Request(`http://localhost:3000/api/workflows/${workflowId}`, { headers: foreign }),
      { id: workflowId },
      member,
    );
    expect(read.status).toBe(421);
    expect(await read.text()).not.toContain("Cross-site");
    const list = await kit.endpoints.list(
      new Request(`http://localhost:3000/api/workflows/${workflowId}/runs`, { headers: foreign }),
      { id: workflowId },
      member,
    );
    expect(list.status).toBe(421);
  });
});

describe("the app's own requests still work", () => {
  it("a same-origin JSON POST and an Origin-less script POST create workflows and start runs", async () => {
    const before = await workflowCount();
    const sameOrigin = {
      host: "localhost:3000",
      origin: "http://localhost:3000",
      "sec-fetch-site": "same-origin",
      ...json,
    };
    const fromPage = await createWorkflow({ headers: sameOrigin, body: JSON.stringify(document) });
    expect(fromPage.status).toBe(201);
    const fromScript = await createWorkflow({
      headers: { ...json, host: "127.0.0.1:3000" },
      body: JSON.stringify(document),
    });
    expect(fromScript.status).toBe(201);
    expect(await workflowCount()).toBe(before + 2);

    const { id } = (await fromPage.json()) as { id: string };
    const runsBefore = await runCount();
    const started = await startRun(id, {
      headers: sameOrigin,
      body: JSON.stringify({ input: { message: "hi" }, wait: true }),
    });
    expect(started.status).toBe(200);
    expect(await started.json()).toMatchObject({ status: "succeeded" });
    // The editor's cancel and a script's bodiless POST carry no body at all.
    expect((await startRun(id, { headers: { host: "localhost:3000" } })).status).toBe(202);
    expect(await runCount()).toBe(runsBefore + 2);
  });

  it("the upload endpoint takes multipart from the app's page, and refuses it from another site", async () => {
    const created = await knowledgeHttp.createBase(
      new Request("http://localhost:3000/api/knowledge-bases", {
        method: "POST",
        headers: json,
        body: JSON.stringify({ name: "Uploads" }),
      }),
      {},
      member,
    );
    expect(created.status).toBe(201);
    const { id } = (await created.json()) as { id: string };
    const upload = (headers: Record<string, string>) => {
      const form = new FormData();
      form.append("file", new Blob(["# Alpha\n\nAlpha text."], { type: "text/markdown" }), "a.md");
      return knowledgeHttp.uploadDocuments(
        new Request(`http://localhost:3000/api/knowledge-bases/${id}/documents`, {
          method: "POST",
          headers,
          body: form,
        }),
        { id },
        member,
      );
    };
    expect((await upload({ origin: "https://evil.example" })).status).toBe(403);
    expect((await knowledge.listDocuments(ws, id)).items).toEqual([]);
    const accepted = await upload({ host: "localhost:3000", origin: "http://localhost:3000" });
    expect(accepted.status).toBe(202);
    expect((await knowledge.listDocuments(ws, id)).items).toHaveLength(1);
    await knowledge.drain();
  });

  it("a knowledge base sent as text/plain is refused and not created", async () => {
    const before = await kit.database.prisma.knowledgeBase.count();
    const response = await knowledgeHttp.createBase(
      new Request("http://localhost:3000/api/knowledge-bases", { method: "POST", body: '{"name":"Sneaky"}' }),
      {},
      member,
    );
    expect(response.status).toBe(415);
    expect(await kit.database.prisma.knowledgeBase.count()).toBe(before);
  });
});
