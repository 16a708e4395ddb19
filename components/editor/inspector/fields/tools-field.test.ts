import { describe, expect, it } from "vitest";
import { outcomeNamesOf } from "@/blocks";
import { withDirectOutput, withRouteOnOutcome } from "./tools-field";

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

describe("withRouteOnOutcome and the names its switch shows", () => {
  it("turns routing on for a tool written as text by giving it an object, and off again", () => {
    const on = withRouteOnOutcome(["calculator", "web_page"], 0, true);
    expect(on).toEqual([{ type: "calculator", routeOnOutcome: true }, "web_page"]);
    expect(outcomeNamesOf(on[0])).toEqual(["calculator"]);
    expect(withRouteOnOutcome(on, 0, false)).toEqual([{ type: "calculator" }, "web_page"]);
  });

  it("keeps a list of tool names an entry already routes on, and shows those names", () => {
    const listed = { type: "mcp", params: { server: "files" }, routeOnOutcome: ["read_file"] };
    expect(withRouteOnOutcome([listed], 0, true)).toEqual([listed]);
    expect(outcomeNamesOf(listed)).toEqual(["read_file"]);
  });

  it("offers no switch for an entry whose tool names are known only when it runs", () => {
    expect(outcomeNamesOf({ type: "mcp", params: { server: "files" } })).toBeNull();
    expect(outcomeNamesOf({ type: "workflow", params: { workflowId: "wf-1" } })).toBeNull();
    expect(outcomeNamesOf({ type: "workflow", name: "lookup", params: { workflowId: "wf-1" } })).toEqual(["lookup"]);
  });
});
