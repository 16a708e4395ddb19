import { describe, expect, it } from "vitest";
import { z } from "zod";
import {
  parseToolEntry,
  routedNamesOfEntry,
  toolEntries,
  toolEntrySchema,
  toolEntryType,
  toolNamesOfEntry,
} from "./tool-entry";

const issuesOf = (entry: unknown) =>
  z
    .array(toolEntrySchema)
    .safeParse([entry])
    .error?.issues.map((issue) => `${issue.path.join(".")}: ${issue.message}`);

describe("an agent's tool entry", () => {
  it("reads every form the same: a type as text, an object with `type`, an object with `id`", () => {
    const [text, typed, byId] = toolEntries([
      " calculator ",
      { type: "calculator" },
      { id: "workflow", name: "lookup", params: { workflowId: "wf-1" }, directOutput: true },
    ]);
    expect(text).toEqual({ kind: "builtin", type: "calculator" });
    expect(typed).toEqual({ kind: "builtin", type: "calculator" });
    expect(byId).toEqual({
      kind: "workflow",
      type: "workflow",
      name: "lookup",
      params: { workflowId: "wf-1" },
      directOutput: true,
    });
    expect(toolEntryType({ id: "mcp" })).toBe("mcp");
    expect(toolEntryType({ params: {} })).toBeNull();
  });

  it("requires what a kind's params must name: an MCP server, a workflow, a knowledge base", () => {
    expect(issuesOf({ type: "mcp", params: {} })).toEqual(["0.params.server: choose an MCP server"]);
    expect(issuesOf({ id: "workflow", params: { workflowId: "" } })).toEqual([
      "0.params.workflowId: choose a workflow",
    ]);
    expect(issuesOf({ type: "knowledge_search", params: { topK: 3 } })).toEqual([
      "0.params: choose a knowledge base (params.knowledgeBaseId or params.knowledgeBaseIds)",
    ]);
    expect(issuesOf({ type: "knowledge_search", params: { knowledgeBaseIds: ["kb-1"], topK: 3 } })).toBeUndefined();
  });

  it("names an entry that names no tool, and a routing switch of the wrong shape", () => {
    expect(issuesOf({ params: { url: "x" } })).toEqual([
      '0.type: must be a tool type such as "calculator" or an object with a "type"',
    ]);
    expect(issuesOf(42)).toEqual(['0: must be a tool type such as "calculator" or an object with a "type"']);
    expect(issuesOf({ type: "calculator", routeOnOutcome: "yes" })).toEqual([
      "0.routeOnOutcome: must be true or a list of tool names",
    ]);
  });

  it("gives the tool names the model sees when they are known before the run", () => {
    expect(toolNamesOfEntry(parseToolEntry({ type: "http_request", name: "post_order" })!)).toEqual(["post_order"]);
    expect(
      toolNamesOfEntry(parseToolEntry({ type: "mcp", params: { server: "files", tools: ["read_note"] } })!),
    ).toEqual(["read_note"]);
    expect(toolNamesOfEntry(parseToolEntry({ type: "mcp", params: { server: "files" } })!)).toBeNull();
    expect(toolNamesOfEntry(parseToolEntry({ id: "workflow", params: { workflowId: "wf-1" } })!)).toBeNull();
    expect(routedNamesOfEntry(parseToolEntry({ type: "calculator", routeOnOutcome: true })!)).toEqual(["calculator"]);
    expect(routedNamesOfEntry(parseToolEntry({ type: "calculator" })!)).toEqual([]);
    expect(issuesOf({ type: "workflow", routeOnOutcome: true, params: { workflowId: "w" } })).toEqual([
      '0.routeOnOutcome: this entry\'s tool names are only known when it runs: give it a "name" (or params.tools) or list them, as routeOnOutcome: ["tool_name"]',
    ]);
  });
});
