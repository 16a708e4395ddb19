import { describe, expect, it } from "vitest";
import { outcomeNamesOf } from "@/blocks";
import {
  entryProblems,
  paramsWithoutInput,
  functionEntry,
  mcpEntry,
  unusedName,
  withDirectOutput,
  withField,
  withParam,
  withRouteOnOutcome,
  workflowEntry,
} from "./tool-entries";

describe("withDirectOutput", () => {
  const tools = [
    "calculator",
    { type: "workflow", params: { workflowId: "wf-1" } },
    { type: "workflow", params: { workflowId: "wf-2" }, directOutput: true },
  ];

  it("turns a workflow entry's directOutput on and off, leaving the others as they are", () => {
    expect(withDirectOutput(tools, 1, true)).toEqual([
      tools[0],
      { type: "workflow", params: { workflowId: "wf-1" }, directOutput: true },
      tools[2],
    ]);
    expect(withDirectOutput(tools, 2, false)).toEqual([
      tools[0],
      tools[1],
      { type: "workflow", params: { workflowId: "wf-2" } },
    ]);
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

describe("entries the picker builds", () => {
  it("pre-fills a param, and leaves it out again when emptied (params too when none is left)", () => {
    const filled = withParam("knowledge_search", "knowledgeBaseId", "kb-1");
    expect(filled).toEqual({ type: "knowledge_search", params: { knowledgeBaseId: "kb-1" } });
    expect(withParam(withParam(filled, "topK", 3), "knowledgeBaseId", "")).toEqual({
      type: "knowledge_search",
      params: { topK: 3 },
    });
    expect(withParam(filled, "knowledgeBaseId", "")).toEqual({ type: "knowledge_search" });
    expect(withParam({ type: "http_request" }, "headers", {})).toEqual({ type: "http_request" });
  });

  it("sets and clears a name and the approval switch", () => {
    const approved = withField({ type: "http_request" }, "requireApproval", true);
    expect(approved).toEqual({ type: "http_request", requireApproval: true });
    expect(withField(approved, "requireApproval", false)).toEqual({ type: "http_request" });
    expect(withField(approved, "name", "orders_api")).toEqual({
      type: "http_request",
      requireApproval: true,
      name: "orders_api",
    });
    expect(withField({ type: "http_request", name: "x" }, "name", "")).toEqual({ type: "http_request" });
  });

  it("adds one MCP tool per entry and a workflow by id, each routable by name", () => {
    expect(mcpEntry("files", "read_file")).toEqual({ type: "mcp", params: { server: "files", tools: ["read_file"] } });
    expect(outcomeNamesOf(mcpEntry("files", "read_file"))).toEqual(["read_file"]);
    expect(workflowEntry([], { id: "wf-1", name: "Summarise Ticket!" })).toEqual({
      type: "workflow",
      name: "summarise_ticket",
      params: { workflowId: "wf-1" },
    });
    expect(
      workflowEntry([{ type: "workflow", name: "summarise_ticket" }], { id: "wf-2", name: "Summarise ticket" }).name,
    ).toBe("summarise_ticket_2");
  });

  it("makes a custom function tool with a free name, parameters as a schema and code", () => {
    const tools = [{ type: "run_function", name: "my_function" }];
    const entry = functionEntry(tools);
    expect(entry.name).toBe("my_function_2");
    expect(entry).toMatchObject({
      type: "run_function",
      params: { parameters: { type: "object", required: ["text"] }, code: expect.stringContaining("return") },
    });
    expect(entryProblems(entry)).toEqual([]);
    expect(unusedName([], "lookup")).toBe("lookup");
  });

  it("says what an entry still lacks", () => {
    expect(entryProblems({ type: "run_function", name: "bad name", params: { code: " " } })).toEqual([
      'The name "bad name" may hold only letters, digits, _ and - (at most 64)',
      "A function tool needs code",
    ]);
    expect(entryProblems({ type: "workflow" })).toEqual(["Choose a workflow"]);
    const declared = [{ name: "knowledgeBaseId", label: "Knowledge base", required: true }];
    expect(entryProblems({ type: "knowledge_search" }, declared)).toEqual(["Knowledge base is required"]);
    expect(entryProblems({ type: "knowledge_search", params: { knowledgeBaseId: "kb-1" } }, declared)).toEqual([]);
    expect(
      entryProblems({ type: "knowledge_search", params: { knowledgeBaseIds: ["kb-1", "kb-2"] } }, declared),
    ).toEqual([]);
    expect(entryProblems({ type: "mcp", params: {} })).toEqual(["Choose an MCP server"]);
  });
});

describe("paramsWithoutInput", () => {
  it("names the params a card has no input for, so none is hidden", () => {
    const declared = [{ name: "knowledgeBaseId" }, { name: "topK" }];
    expect(
      paramsWithoutInput(
        { type: "knowledge_search", params: { knowledgeBaseIds: ["a", "b"], topK: 2, filters: {} } },
        declared,
      ),
    ).toEqual(["knowledgeBaseIds", "filters"]);
    expect(
      paramsWithoutInput({
        type: "run_function",
        name: "f",
        params: { code: "return 1", description: "d", parameters: {} },
      }),
    ).toEqual([]);
    expect(paramsWithoutInput({ type: "mcp", params: { server: "notes", tools: ["read_note"] } })).toEqual([]);
  });
});
