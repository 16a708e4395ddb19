import fs from "node:fs";
import path from "node:path";
import { renderToStaticMarkup } from "react-dom/server";
import ts from "typescript";
import { describe, expect, it } from "vitest";
import type { WorkflowSummary, WorkspaceRunSummary } from "@/contract";
import { RunListRow } from "@/components/run-list/run-list-row";
import { WorkflowRow } from "@/components/workflows/workflow-row";
import { formatDateTime } from "./date-time";

/**
 * Defect 7: home showed "11/23/2026, 5:13:49 PM" and the run history "23/11/2026, 17:18:09" for
 * moments a minute apart, because each component formatted dates its own way. Every page now goes
 * through formatDateTime; these tests hold it there.
 */

const root = path.resolve(__dirname, "..", "..");
const instant = "2026-11-23T17:13:49.000Z";

function sourceFiles(directory: string): string[] {
  return fs.readdirSync(directory, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(directory, entry.name);
    if (entry.isDirectory()) return sourceFiles(full);
    return /\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name) ? [full] : [];
  });
}

/**
 * Calls that format a date (with or without its time) in a shape of their own: `new Date(x).toLocaleString(...)`
 * and any `toLocaleDateString`. A number's `toLocaleString("en-US")` (token counts, dollars) is not a date.
 */
function ownDateFormats(file: string): string[] {
  const source = ts.createSourceFile(file, fs.readFileSync(file, "utf8"), ts.ScriptTarget.Latest, true);
  const found: string[] = [];
  const visit = (node: ts.Node) => {
    if (ts.isCallExpression(node) && ts.isPropertyAccessExpression(node.expression)) {
      const method = node.expression.name.text;
      const receiver = node.expression.expression;
      const onNewDate = ts.isNewExpression(receiver) && receiver.expression.getText(source) === "Date";
      if (method === "toLocaleDateString" || (method === "toLocaleString" && onNewDate)) {
        const { line } = source.getLineAndCharacterOfPosition(node.getStart(source));
        found.push(`${path.relative(root, file)}:${line + 1} ${node.getText(source)}`);
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

describe("one date and time format on every page", () => {
  it("has no component or page formatting a date its own way", () => {
    const files = [...sourceFiles(path.join(root, "components")), ...sourceFiles(path.join(root, "app"))];
    expect(files.length).toBeGreaterThan(100);
    expect(files.flatMap(ownDateFormats)).toEqual([]);
  });

  it("shows the same instant the same way on the home page's rows and the Runs page's", () => {
    const workflow: WorkflowSummary = { id: "wf_1", name: "Support", description: "", version: 3, createdAt: instant, updatedAt: instant };
    const home = renderToStaticMarkup(
      <WorkflowRow workflow={workflow} canEdit={false} onRename={async () => {}} onDuplicate={() => {}} onDelete={() => {}} onExport={() => {}} />,
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
