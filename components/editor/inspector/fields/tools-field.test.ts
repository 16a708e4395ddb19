import { describe, expect, it } from "vitest";
import { withDirectOutput } from "./tools-field";

describe("withDirectOutput", () => {
  const tools = ["calculator", { type: "workflow", params: { workflowId: "wf-1" } }, { type: "workflow", params: { workflowId: "wf-2" }, directOutput: true }];

  it("turns a workflow entry's directOutput on and off, leaving the others as they are", () => {
    expect(withDirectOutput(tools, 1, true)).toEqual([tools[0], { type: "workflow", params: { workflowId: "wf-1" }, directOutput: true }, tools[2]]);
    expect(withDirectOutput(tools, 2, false)).toEqual([tools[0], tools[1], { type: "workflow", params: { workflowId: "wf-2" } }]);
  });

  it("never marks an entry that is not a workflow tool", () => {
    expect(withDirectOutput(tools, 0, true)).toEqual(tools);
  });
});
