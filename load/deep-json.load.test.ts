/**
 * Deep JSON (issue 15): a block config nested 5,000 levels deep used to overflow the stack while
 * the document was checked, answering 500 with a stack trace in the log. It must answer 400 naming
 * the depth limit, wherever a JSON body arrives, and leave the server well.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MAX_JSON_DEPTH } from "@/contract";
import { TWO_BLOCK_WORKFLOW } from "../scripts/bench-throughput/app";
import { callApi, expectStatus } from "./http";
import { report, startLoadApp, type LoadApp } from "./load-app";

/** How deep the hostile documents nest. */
export const HOSTILE_DEPTH = 5_000;
/** The answer the issue asks for, whatever the shape of the nesting. */
export const EXPECTED_STATUS = 400;

/** A line of a printed stack trace: "    at fn (file:line:col)". */
const STACK_FRAME = /^\s+at\s+\S/;

/** Text, not an object: JSON.stringify of 5,000 levels would test the client's stack, not the server's. */
function nested(kind: "object" | "array", depth: number): string {
  return kind === "object"
    ? `${'{"a":'.repeat(depth)}1${"}".repeat(depth)}`
    : `${"[".repeat(depth)}1${"]".repeat(depth)}`;
}

function documentWithDeepConfig(kind: "object" | "array"): string {
  const [start, response] = TWO_BLOCK_WORKFLOW.blocks;
  const shallow = JSON.stringify({
    ...TWO_BLOCK_WORKFLOW,
    blocks: [start, { ...response, config: { data: "__DEEP__" } }],
  });
  return shallow.replace('"__DEEP__"', nested(kind, HOSTILE_DEPTH));
}

describe("deep JSON", () => {
  let app: LoadApp;

  beforeAll(async () => {
    app = await startLoadApp("deep-json");
  });

  afterAll(async () => {
    await app?.close();
  });

  it(`answers ${EXPECTED_STATUS} naming the limit to JSON ${HOSTILE_DEPTH} levels deep, with no stack trace in the log`, async () => {
    const stored = expectStatus("GET workflow", await callApi(app, "GET", `/api/workflows/${app.workflowId}`), 200);
    const cases: Array<{ what: string; method: "POST" | "PUT"; path: string; body: string }> = [
      {
        what: "POST /api/workflows, config nested in objects",
        method: "POST",
        path: "/api/workflows",
        body: documentWithDeepConfig("object"),
      },
      {
        what: "POST /api/workflows, config nested in arrays",
        method: "POST",
        path: "/api/workflows",
        body: documentWithDeepConfig("array"),
      },
      {
        what: "PUT /api/workflows/:id, config nested in objects",
        method: "PUT",
        path: `/api/workflows/${app.workflowId}`,
        body: documentWithDeepConfig("object").replace(/^\{/, `{"version":${Number(stored.version)},`),
      },
      {
        what: "POST /api/workflows/:id/runs, input nested in objects",
        method: "POST",
        path: `/api/workflows/${app.workflowId}/runs`,
        body: `{"input":{"deep":${nested("object", HOSTILE_DEPTH)}}}`,
      },
    ];

    const mark = app.webLogMark();
    const answers = [];
    for (const { what, method, path, body } of cases) {
      const answer = await callApi(app, method, path, body);
      const message = (answer.body as { error?: { message?: string } }).error?.message ?? answer.text.slice(0, 300);
      answers.push({ what, status: answer.status, message });
    }
    const health = await callApi(app, "GET", "/api/health");
    const printed = app.webLogSince(mark);
    const stackLines = printed.filter((line) => STACK_FRAME.test(line));

    for (const { what, status, message } of answers)
      report(`deep JSON ${what}`, { status, message: JSON.stringify(message) });
    report("deep JSON server", {
      health: health.status,
      stackTraceLines: stackLines.length,
      logLines: printed.length,
      database: app.database,
    });

    for (const { what, status, message } of answers) {
      expect(status, what).toBe(EXPECTED_STATUS);
      expect(message, what).toContain(String(MAX_JSON_DEPTH));
    }
    expect(health.status).toBe(200);
    expect(stackLines, "stack trace lines in the server's log").toEqual([]);
  });
});
