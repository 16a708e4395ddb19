import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ApiError, createApiClient } from "@/contract";
import type { Member } from "@/lib/auth";
import { testMember } from "@/lib/http/test-members";
import { startRunTestKit, supportRoutingDocument, type RunTestKit } from "./__fixtures__/run-test-kit";

let kit: RunTestKit;
let ws: string;
let member: Member;
beforeAll(async () => {
  kit = await startRunTestKit();
  ws = await kit.database.createWorkspace();
  member = testMember(ws, "editor");
});
afterAll(() => kit.close());

/** The browser's API client, its requests served by the real run endpoints over a test database. */
function clientOverEndpoints() {
  const serve = async (input: RequestInfo | URL, init?: RequestInit) => {
    const request = new Request(new URL(String(input), "http://localhost"), init);
    const { pathname } = new URL(request.url);
    const start = /^\/api\/workflows\/([^/]+)\/runs$/.exec(pathname);
    if (start && request.method === "POST") return kit.endpoints.start(request, { id: start[1]! }, member);
    const run = /^\/api\/runs\/([^/]+)$/.exec(pathname);
    if (run) return kit.endpoints.get(request, { id: run[1]! }, member);
    return new Response(null, { status: 404 });
  };
  return createApiClient({ fetch: serve as typeof fetch });
}

describe("the API client against the run endpoints", () => {
  it("starts a run with the start inputs under `input`, so the workflow receives them", async () => {
    const workflowId = (
      await kit.database.repositories.workflows.create(ws, supportRoutingDocument("offline/echo") as never)
    ).id;
    const api = clientOverEndpoints();
    const { runId } = await api.runs.start(workflowId, { input: { message: "I need support: the parcel is broken" } });
    await kit.runtime.runs.liveRun(runId)?.done;
    const run = await api.runs.get(runId);
    expect(run.input).toEqual({ message: "I need support: the parcel is broken" });
    expect(run.status).toBe("succeeded");
  });

  it("throws an ApiError carrying the server's code, message and details", async () => {
    const api = clientOverEndpoints();
    const failure = await api.runs.start("no-such-workflow").catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(ApiError);
    expect(failure).toMatchObject({ status: 404, code: "not_found" });
    expect((failure as ApiError).message).toContain("no-such-workflow");
  });
});
