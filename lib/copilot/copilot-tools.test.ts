import { describe, expect, it } from "vitest";
import type { ToolSet } from "ai";
import type { WorkflowDocument } from "@/contract";
import { copilotTools } from "./copilot-tools";
import { DraftEditor } from "./draft-editor";

/** The copilot's tools over a draft editor, called as the AI SDK calls them. */

const draft: WorkflowDocument = {
  name: "Draft",
  description: "",
  variables: {},
  blocks: [
    {
      id: "start",
      type: "start",
      name: "Start",
      position: { x: 0, y: 0 },
      parentId: null,
      enabled: true,
      config: { inputs: [{ name: "message", type: "string" }] },
    },
    {
      id: "agent",
      type: "agent",
      name: "Agent",
      position: { x: 260, y: 0 },
      parentId: null,
      enabled: true,
      config: { model: "openai/gpt-4o-mini", userPrompt: "<start.message>" },
    },
  ],
  edges: [{ id: "e1", source: "start", target: "agent", sourceHandle: "out" }],
};

function setup(checkStored: (document: WorkflowDocument) => Promise<void> = async () => {}) {
  const editor = new DraftEditor(draft, checkStored);
  const tools: ToolSet = copilotTools(editor);
  const call = (name: string, input: unknown) =>
    tools[name]!.execute!(input as never, { toolCallId: "call", messages: [], context: undefined }) as Promise<{
      done: string;
    }>;
  return { editor, call };
}

describe("the copilot's edit tools", () => {
  it("sets a field and renames, each a change", async () => {
    const { editor, call } = setup();
    await expect(call("set_field", { block: "Agent", field: "systemPrompt", value: "Be brief." })).resolves.toEqual({
      done: 'Set systemPrompt of "Agent"',
    });
    await call("rename_block", { block: "agent", name: "Helper" });
    expect(editor.document.blocks[1]).toMatchObject({ name: "Helper", config: { systemPrompt: "Be brief." } });
    expect(editor.changes.map((change) => change.tool)).toEqual(["set_field", "rename_block"]);
  });

  it("refuses a field its config schema refuses, and one that leaves the block unfinished, changing nothing", async () => {
    const { editor, call } = setup();
    await expect(call("set_field", { block: "Agent", field: "temperature", value: "hot" })).rejects.toThrow(/Refused/);
    await expect(call("set_field", { block: "Agent", field: "userPrompt", value: "" })).rejects.toThrow(
      /leaves a block unfinished/,
    );
    expect(editor.document).toEqual(draft);
    expect(editor.refused.map((refusal) => refusal.tool)).toEqual(["set_field", "set_field"]);
  });

  it("refuses a reference to a block that does not run before, and names unknown blocks", async () => {
    const { call } = setup();
    await expect(call("set_field", { block: "Agent", field: "userPrompt", value: "<Nobody.content>" })).rejects.toThrow(
      /Refused/,
    );
    await expect(call("remove_block", { block: "Ghost" })).rejects.toThrow(/no block "Ghost".*start \(Start\)/);
    await expect(call("connect", { from: "Agent", to: "Start" })).rejects.toThrow(/accepts no incoming edges/);
  });

  it("refuses a handle the block does not have, and a container that is not one", async () => {
    const { call } = setup();
    await expect(call("connect", { from: "Start", to: "Agent", handle: "maybe" })).rejects.toThrow(
      /has no handle "maybe"/,
    );
    await expect(call("move_into", { block: "Agent", container: "Start" })).rejects.toThrow(/not a loop or parallel/);
  });

  it("refuses what the stored-things check refuses, with its message", async () => {
    const { editor, call } = setup(async (document) => {
      if (document.blocks.some((block) => block.type === "knowledge"))
        throw new Error("Knowledge base kb-1 is not in this workspace");
    });
    await expect(
      call("add_block", {
        type: "knowledge",
        name: "Policies",
        after: ["Start"],
        config: { knowledgeBaseIds: ["kb-1"], query: "<start.message>" },
      }),
    ).rejects.toThrow();
    expect(editor.document.blocks).toHaveLength(2);
  });

  it("removes a block with its edges", async () => {
    const { editor, call } = setup();
    await call("remove_block", { block: "Agent" });
    expect(editor.document.blocks.map((block) => block.id)).toEqual(["start"]);
    expect(editor.document.edges).toEqual([]);
  });
});
