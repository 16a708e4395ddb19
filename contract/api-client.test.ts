import { describe, expect, it } from "vitest";
import { apiErrorFrom, createApiClient } from "./api-client";
import { PAGE_LIMIT_MAX } from "./pagination";

describe("apiErrorFrom", () => {
  it("reads the contract's error body, the auth routes' flat body, and anything else by its status", () => {
    const contract = apiErrorFrom(
      400,
      JSON.stringify({ error: { code: "invalid_request", message: "name: is required", details: [{ path: "name", message: "is required" }] } }),
    );
    expect(contract).toMatchObject({ status: 400, code: "invalid_request", message: "name: is required", details: [{ path: "name", message: "is required" }] });
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
    const workflows = Array.from({ length: PAGE_LIMIT_MAX * 2 + 3 }, (_, index) => ({ id: `w${index}` }));
    const { asked, client } = pagedServer("workflows", workflows);
    expect(await client.workflows.list()).toEqual(workflows);
    expect(asked).toEqual([
      `/api/workflows?limit=${PAGE_LIMIT_MAX}`,
      `/api/workflows?limit=${PAGE_LIMIT_MAX}&cursor=${PAGE_LIMIT_MAX}`,
      `/api/workflows?limit=${PAGE_LIMIT_MAX}&cursor=${PAGE_LIMIT_MAX * 2}`,
    ]);
  });

  it("pages a workflow's runs on request (the run history's Load more), with the status filter beside the cursor", async () => {
    const runs = Array.from({ length: 5 }, (_, index) => ({ id: `r${index}`, status: "failed" }));
    const { asked, client } = pagedServer("runs", runs);
    const first = await client.runs.page("w 1", { status: ["failed", "cancelled"], limit: 2 });
    expect(first).toEqual({ runs: runs.slice(0, 2), nextCursor: "2" });
    const second = await client.runs.page("w 1", { status: ["failed", "cancelled"], limit: 2, cursor: first.nextCursor });
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
    const runs = Array.from({ length: 3 }, (_, index) => ({ id: `r${index}`, workflowName: "One" }));
    const { asked, client } = pagedServer("runs", runs);
    const first = await client.runs.workspacePage({ workflow: "w 1", status: ["failed"], trigger: ["api", "webhook"], limit: 2 });
    expect(first).toEqual({ runs: runs.slice(0, 2), nextCursor: "2" });
    await client.runs.workspacePage({ limit: 2, cursor: first.nextCursor });
    expect(asked).toEqual(["/api/runs?workflow=w+1&status=failed&trigger=api%2Cwebhook&limit=2", "/api/runs?limit=2&cursor=2"]);
  });

  it("gives every member and invitation of a workspace, whose two lists share one cursor", async () => {
    const members = Array.from({ length: PAGE_LIMIT_MAX + 1 }, (_, index) => ({ userId: `u${index}` }));
    const { client } = pagedServer("members", members, (page) => ({ invitations: page.length > 1 ? [{ id: `i${page.length}` }] : [] }));
    expect(await client.workspaces.members("ws")).toEqual({ members, invitations: [{ id: `i${PAGE_LIMIT_MAX}` }] });
  });
});
