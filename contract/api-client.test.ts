import { describe, expect, it } from "vitest";
import { apiErrorFrom, createApiClient } from "./api-client";
import { PAGE_LIMIT_MAX } from "./pagination";

const at = "2026-01-01T00:00:00.000Z";
/** Items as the API describes them (the client parses every answer with its schema, so a fake server must answer as the real one). */
const workflowSummary = (id: string) => ({
  id,
  name: `Workflow ${id}`,
  description: "",
  version: 1,
  createdAt: at,
  updatedAt: at,
});
const runSummary = (id: string, extra: Record<string, unknown> = {}) => ({
  id,
  workflowId: "w 1",
  status: "failed",
  startedAt: at,
  endedAt: at,
  durationMs: 5,
  tokens: { prompt: 1, completion: 1, total: 2 },
  cost: { input: 0, output: 0, total: 0 },
  unpriced: false,
  estimated: false,
  trigger: { kind: "api" },
  deploymentId: null,
  workflowVersion: 1,
  rerunOf: null,
  replayOf: null,
  test: false,
  budget: null,
  ...extra,
});
const member = (userId: string) => ({
  userId,
  name: userId,
  email: `${userId}@example.com`,
  role: "viewer",
  joinedAt: at,
});
const invitation = (id: string) => ({
  id,
  email: `${id}@example.com`,
  role: "viewer",
  invitedBy: null,
  createdAt: at,
  expiresAt: at,
});

describe("apiErrorFrom", () => {
  it("reads the contract's error body, the auth routes' flat body, and anything else by its status", () => {
    const contract = apiErrorFrom(
      400,
      JSON.stringify({
        error: {
          code: "invalid_request",
          message: "name: is required",
          details: [{ path: "name", message: "is required" }],
        },
      }),
    );
    expect(contract).toMatchObject({
      status: 400,
      code: "invalid_request",
      message: "name: is required",
      details: [{ path: "name", message: "is required" }],
    });
    const auth = apiErrorFrom(403, JSON.stringify({ code: "SIGN_UP_CLOSED", message: "Sign-up is closed." }));
    expect(auth).toMatchObject({ status: 403, code: "SIGN_UP_CLOSED", message: "Sign-up is closed.", details: [] });
    const proxy = apiErrorFrom(502, "<html>Bad gateway</html>");
    expect(proxy).toMatchObject({ status: 502, code: "http_error", message: "The server answered 502." });
  });
});

/** A fake server holding `items` under `key`, paged as the API pages (the cursor is the next index here); records each URL asked for. */
function pagedServer(key: string, items: unknown[], extra: (page: unknown[]) => Record<string, unknown> = () => ({})) {
  const asked: string[] = [];
  const fetch = async (input: RequestInfo | URL) => {
    const url = new URL(String(input), "http://localhost");
    asked.push(`${url.pathname}${url.search}`);
    const start = Number(url.searchParams.get("cursor") ?? 0);
    const limit = Number(url.searchParams.get("limit") ?? 50);
    const page = items.slice(start, start + limit);
    const nextCursor = start + limit < items.length ? String(start + limit) : null;
    return Response.json({ [key]: page, ...extra(page), nextCursor });
  };
  return { asked, client: createApiClient({ fetch: fetch as typeof globalThis.fetch }) };
}

describe("the API client's lists", () => {
  it("gives every item of a list, fetching page after page at the largest size", async () => {
    const workflows = Array.from({ length: PAGE_LIMIT_MAX * 2 + 3 }, (_, index) => workflowSummary(`w${index}`));
    const { asked, client } = pagedServer("workflows", workflows);
    expect(await client.workflows.list()).toEqual(workflows);
    expect(asked).toEqual([
      `/api/workflows?limit=${PAGE_LIMIT_MAX}`,
      `/api/workflows?limit=${PAGE_LIMIT_MAX}&cursor=${PAGE_LIMIT_MAX}`,
      `/api/workflows?limit=${PAGE_LIMIT_MAX}&cursor=${PAGE_LIMIT_MAX * 2}`,
    ]);
  });

  it("pages a workflow's runs on request (the run history's Load more), with the status filter beside the cursor", async () => {
    const runs = Array.from({ length: 5 }, (_, index) => runSummary(`r${index}`));
    const { asked, client } = pagedServer("runs", runs);
    const first = await client.runs.page("w 1", { status: ["failed", "cancelled"], limit: 2 });
    expect(first).toEqual({ runs: runs.slice(0, 2), nextCursor: "2" });
    const second = await client.runs.page("w 1", {
      status: ["failed", "cancelled"],
      limit: 2,
      cursor: first.nextCursor,
    });
    expect(second.runs).toEqual(runs.slice(2, 4));
    expect(asked).toEqual([
      "/api/workflows/w%201/runs?status=failed%2Ccancelled&limit=2",
      "/api/workflows/w%201/runs?status=failed%2Ccancelled&limit=2&cursor=2",
    ]);
    // `list` keeps answering the newest page only, as it always did.
    expect(await client.runs.list("w 1")).toEqual(runs);
    expect(asked.at(-1)).toBe("/api/workflows/w%201/runs");
  });

  it("pages the workspace's runs (the Runs page) with the workflow, status and trigger filters beside the cursor", async () => {
    const runs = Array.from({ length: 3 }, (_, index) => runSummary(`r${index}`, { workflowName: "One" }));
    const { asked, client } = pagedServer("runs", runs);
    const first = await client.runs.workspacePage({
      workflow: "w 1",
      status: ["failed"],
      trigger: ["api", "webhook"],
      limit: 2,
    });
    expect(first).toEqual({ runs: runs.slice(0, 2), nextCursor: "2" });
    await client.runs.workspacePage({ limit: 2, cursor: first.nextCursor });
    expect(asked).toEqual([
      "/api/runs?workflow=w+1&status=failed&trigger=api%2Cwebhook&limit=2",
      "/api/runs?limit=2&cursor=2",
    ]);
  });

  it("gives every member and invitation of a workspace, whose two lists share one cursor", async () => {
    const members = Array.from({ length: PAGE_LIMIT_MAX + 1 }, (_, index) => member(`u${index}`));
    const { client } = pagedServer("members", members, (page) => ({
      invitations: page.length > 1 ? [invitation(`i${page.length}`)] : [],
    }));
    expect(await client.workspaces.members("ws")).toEqual({ members, invitations: [invitation(`i${PAGE_LIMIT_MAX}`)] });
  });
});

/** A fake server answering every request with one response, recording what was asked. */
function answering(response: () => Response) {
  const asked: string[] = [];
  const fetch = async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = new URL(String(input), "http://localhost");
    asked.push(`${init?.method ?? "GET"} ${url.pathname}${url.search}`);
    return response();
  };
  return { asked, client: createApiClient({ fetch: fetch as typeof globalThis.fetch }) };
}

describe("the API client's answers", () => {
  it("are parsed with the operation's declared schema: what it does not describe is dropped", async () => {
    const { asked, client } = answering(() =>
      Response.json({ ...workflowSummary("w1"), secretField: "never reaches the caller" }),
    );
    const workflow = await client.call("getWorkflow", { params: { id: "w/1" } });
    expect(workflow).toMatchObject(workflowSummary("w1"));
    expect(workflow).not.toHaveProperty("secretField");
    // The schema's defaults are filled in, as the server's own parse fills them.
    expect(workflow.edges).toEqual([]);
    expect(asked).toEqual(["GET /api/workflows/w%2F1"]);
  });

  it("fail with the status and where the body differs from its description, rather than passing it on as typed", async () => {
    const { client } = answering(() => Response.json({ ...workflowSummary("w1"), version: "one" }));
    await expect(client.workflows.get("w1")).rejects.toMatchObject({
      status: 200,
      code: "invalid_answer",
      message: expect.stringContaining(
        "GET /api/workflows/{id} answered 200 with a body its description does not allow at version",
      ),
    });
  });

  it("take the shape declared for the status that came, and refuse another success status than the one asked for", async () => {
    const started = answering(() => Response.json({ runId: "r1" }, { status: 202 }));
    expect(await started.client.runs.start("w1", { input: { a: 1 } })).toEqual({ runId: "r1" });
    expect(started.asked).toEqual(["POST /api/workflows/w1/runs"]);
    const finished = answering(() => Response.json(runSummary("r1"), { status: 200 }));
    await expect(finished.client.runs.start("w1")).rejects.toMatchObject({
      code: "unexpected_answer",
      message: expect.stringContaining("not the 202 asked for"),
    });
  });

  it("take no body from an answer declared without one, and keep a model id's slash in the path", async () => {
    const { asked, client } = answering(() => new Response(null, { status: 204 }));
    expect(await client.prices.remove("ollama/llama3.2")).toBeUndefined();
    expect(asked).toEqual(["DELETE /api/prices/ollama/llama3.2"]);
  });
});
