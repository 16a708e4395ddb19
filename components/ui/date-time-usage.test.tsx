import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import type { WorkflowSummary, WorkspaceRunSummary } from "@/contract";
import { RunListRow } from "@/components/run-list/run-list-row";
import { WorkflowRow } from "@/components/workflows/workflow-row";
import { formatDateTime } from "./date-time";

/**
 * Defect 7: home showed "11/23/2026, 5:13:49 PM" and the run history "23/11/2026, 17:18:09" for
 * moments a minute apart, because each component formatted dates its own way. Every page now goes
 * through formatDateTime: the lint rule trellis/one-date-format (eslint/) holds it there, and this
 * test shows two pages agreeing.
 */

const instant = "2026-11-23T17:13:49.000Z";

describe("one date and time format on every page", () => {
  it("shows the same instant the same way on the home page's rows and the Runs page's", () => {
    const workflow: WorkflowSummary = {
      id: "wf_1",
      name: "Support",
      description: "",
      version: 3,
      createdAt: instant,
      updatedAt: instant,
    };
    const home = renderToStaticMarkup(
      <WorkflowRow
        workflow={workflow}
        canEdit={false}
        onRename={async () => {}}
        onDuplicate={() => {}}
        onDelete={() => {}}
        onExport={() => {}}
      />,
    );
    const run: WorkspaceRunSummary = {
      id: "run_1",
      workflowId: "wf_1",
      workflowName: "Support",
      workflowVersion: 3,
      status: "succeeded",
      startedAt: instant,
      endedAt: instant,
      durationMs: 0,
      tokens: { prompt: 0, completion: 0, total: 0 },
      cost: { input: 0, output: 0, total: 0 },
      unpriced: false,
      estimated: false,
      trigger: { kind: "editor" },
      deploymentId: null,
      rerunOf: null,
      replayOf: null,
      test: false,
      budget: null,
    };
    const runs = renderToStaticMarkup(
      <table>
        <tbody>
          <RunListRow run={run} />
        </tbody>
      </table>,
    );
    const shown = formatDateTime(instant);
    expect(home).toContain(`updated ${shown}`);
    expect(runs).toContain(`>${shown}<`);
  });
});
