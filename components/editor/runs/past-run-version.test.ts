import { describe, expect, it } from "vitest";
import { pastRunVersionText } from "./past-run-version";

describe("the past run banner's version words", () => {
  it("names the version the run ran and the one the workflow is at now", () => {
    expect(pastRunVersionText({ runId: "r", workflowVersion: 3, documentKept: true, mayAct: false }, 5)).toBe(
      "Version 3, as it ran (the workflow is now at version 5). Read-only.",
    );
    expect(pastRunVersionText({ runId: "r", workflowVersion: 5, documentKept: true, mayAct: false }, 5)).toBe(
      "Version 5, the current one. Read-only.",
    );
  });

  it("says when the graph shown is the current one, not the run's", () => {
    expect(pastRunVersionText({ runId: "r", workflowVersion: null, documentKept: false, mayAct: false }, 5)).toBe(
      "This run was stored before runs kept their workflow: shown on the current workflow (the workflow is now at version 5), which may differ from what it ran.",
    );
    expect(
      pastRunVersionText({ runId: "r", workflowVersion: null, documentKept: true, mayAct: false }, undefined),
    ).toBe("Shown on the workflow as it ran; its version was not recorded.");
  });
});
