import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import type { WorkspaceRunSummary } from "@/contract";
import { RunListRow } from "./run-list-row";

const run = {
  id: "run-1",
  workflowId: "wf-1",
  workflowName: "Support routing",
  status: "succeeded",
  startedAt: "2026-12-07T10:00:00.000Z",
  durationMs: 1200,
  trigger: { kind: "api" },
  test: false,
  replayOf: null,
  rerunOf: null,
  estimated: false,
  tokens: { prompt: 0, completion: 0, total: 0 },
  cost: { total: 0 },
} as unknown as WorkspaceRunSummary;

/** Each link of a row, as `text -> href`. */
function links(markup: string): string[] {
  return [...markup.matchAll(/<a [^>]*href="([^"]+)"[^>]*>([^<]*)<\/a>/g)].map((match) => `${match[2]} -> ${match[1]}`);
}

describe("a row of the Runs page", () => {
  it("links the run from its time and the workflow from its name", () => {
    const markup = renderToStaticMarkup(
      <table>
        <tbody>
          <RunListRow run={run} />
        </tbody>
      </table>,
    );
    const [toRun, toWorkflow] = links(markup);
    expect(toRun).toMatch(/ -> \/workflows\/wf-1\/runs\/run-1$/);
    expect(toRun).not.toContain("Support routing");
    expect(toWorkflow).toBe("Support routing -> /workflows/wf-1");
  });
});
