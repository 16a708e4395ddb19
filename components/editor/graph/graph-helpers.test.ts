import { describe, expect, it } from "vitest";
import type { WorkflowBlock } from "@/contract";
import { uniqueBlockName } from "./block-naming";
import { buildClipboardPayload, parseClipboardText, preparePaste } from "./clipboard-payload";
import { createBlock } from "./new-block";
import { referenceItemsFor } from "./reference-items";
import { applyCompletion, filterCompletions, findTrigger } from "./reference-completion";
import { issuesByBlock } from "./issues-by-block";

const block = (id: string, type: string, name: string, extra: Partial<WorkflowBlock> = {}): WorkflowBlock => ({
  id,
  type,
  name,
  position: { x: 0, y: 0 },
  parentId: null,
  enabled: true,
  config: {},
  ...extra,
});

// The connection rules and the cycle check live in the executor now: executor/connection-checker.test.ts.

describe("naming and new blocks", () => {
  it("gives the first free name ignoring case and spaces", () => {
    expect(uniqueBlockName("Agent", ["agent"])).toBe("Agent 2");
    expect(uniqueBlockName("Support Agent", ["SupportAgent", "Support Agent 2"])).toBe("Support Agent 3");
    expect(uniqueBlockName("Router", [])).toBe("Router");
    expect(uniqueBlockName("Loop", [])).toBe("Loop 1");
    expect(uniqueBlockName("Parallel", ["Parallel 1"])).toBe("Parallel 2");
  });
  it("fills schema defaults and leaves required fields empty", () => {
    const agent = createBlock("agent", { x: 1, y: 2 }, { ids: new Set(["agent1"]), names: ["Agent"] });
    expect(agent).toMatchObject({
      id: "agent2",
      name: "Agent 2",
      config: { model: "offline/echo", maxIterations: 10 },
    });
    expect(agent.config.userPrompt).toBeUndefined();
    expect(createBlock("loop", { x: 0, y: 0 }, { ids: new Set(), names: [] }).size).toBeDefined();
  });
});

describe("clipboard payload", () => {
  const blocks = [
    block("start", "start", "Start"),
    block("agent1", "agent", "Agent"),
    block("loop1", "loop", "Loop 1"),
    block("fn1", "function", "Fn", { parentId: "loop1" }),
  ];
  const edges = [
    { id: "e1", source: "start", target: "agent1", sourceHandle: "out" },
    { id: "e2", source: "loop1", target: "fn1", sourceHandle: "body" },
  ];

  it("includes container children and only inner edges, and round-trips as text", () => {
    const payload = buildClipboardPayload(blocks, edges, new Set(["agent1", "loop1"]))!;
    expect(payload.blocks.map((item) => item.id)).toEqual(["agent1", "loop1", "fn1"]);
    expect(payload.edges.map((edge) => edge.id)).toEqual(["e2"]);
    expect(parseClipboardText(JSON.stringify(payload))).toEqual(payload);
    expect(parseClipboardText("hello")).toBeNull();
  });

  it("renames and re-ids pasted blocks that collide, rewiring their edges", () => {
    const payload = buildClipboardPayload(blocks, edges, new Set(["loop1"]))!;
    const pasted = preparePaste(
      payload,
      {
        blockIds: new Set(blocks.map((item) => item.id)),
        blockNames: blocks.map((item) => item.name),
        edgeIds: new Set(["e1", "e2"]),
      },
      { x: 40, y: 40 },
    );
    const [loop, inner] = pasted.blocks;
    expect(loop).toMatchObject({ name: "Loop 2", parentId: null, position: { x: 40, y: 40 } });
    expect(loop!.id).not.toBe("loop1");
    expect(inner).toMatchObject({ name: "Fn 2", parentId: loop!.id, position: { x: 0, y: 0 } });
    expect(pasted.edges).toEqual([{ id: "e3", source: loop!.id, target: inner!.id, sourceHandle: "body" }]);
  });

  it("points references among pasted blocks at the copies, and leaves references to blocks not pasted", () => {
    const source = [
      block("start", "start", "Start"),
      block("agent1", "agent", "Writer", { config: { userPrompt: "<Start.message>" } }),
      block("resp", "response", "Reply", { config: { body: "<Writer.content> (<agent1.tokens.total> tokens)" } }),
    ];
    const payload = buildClipboardPayload(source, [], new Set(["agent1", "resp"]))!;
    const pasted = preparePaste(
      payload,
      {
        blockIds: new Set(source.map((item) => item.id)),
        blockNames: source.map((item) => item.name),
        edgeIds: new Set(),
      },
      { x: 40, y: 40 },
    );
    const [writer, reply] = pasted.blocks;
    expect(writer!.name).toBe("Writer 2");
    expect(writer!.config).toEqual({ userPrompt: "<Start.message>" });
    expect(reply!.config).toEqual({ body: `<Writer 2.content> (<${writer!.id}.tokens.total> tokens)` });

    // Into a workflow without them, nothing is renamed and nothing rewritten.
    const elsewhere = preparePaste(
      payload,
      { blockIds: new Set(["start"]), blockNames: ["Start"], edgeIds: new Set() },
      { x: 0, y: 0 },
    );
    expect(elsewhere.blocks[1]!.config).toEqual({ body: "<Writer.content> (<agent1.tokens.total> tokens)" });
  });
});

describe("reference completion", () => {
  it("finds `<` and `{{` triggers before the cursor", () => {
    expect(findTrigger("Hello <Sta", 10)).toEqual({ kind: "reference", start: 6, query: "Sta" });
    expect(findTrigger("key {{OPEN", 10)).toEqual({ kind: "env", start: 4, query: "OPEN" });
    expect(findTrigger("a < b", 5)).toBeNull();
    expect(findTrigger("<done> after", 12)).toBeNull();
  });
  it("filters ignoring case and spaces and inserts the closed reference", () => {
    const items = [{ value: "Support Agent.content" }, { value: "Start.message" }];
    expect(filterCompletions(items, "supporta").map((item) => item.value)).toEqual(["Support Agent.content"]);
    const trigger = findTrigger("Reply to <st", 12)!;
    expect(applyCompletion("Reply to <st", 12, trigger, { value: "Start.message" })).toEqual({
      text: "Reply to <Start.message>",
      cursor: 24,
    });
  });
  it("completes a `??` alternative on its own, closing the reference opened before it", () => {
    const typed = "Answer: <Sales Agent.content ?? Sup";
    const trigger = findTrigger(typed, typed.length)!;
    expect(trigger).toEqual({ kind: "reference", start: typed.length - 3, query: "Sup", alternative: true });
    expect(applyCompletion(typed, typed.length, trigger, { value: "Support Agent.content" })).toEqual({
      text: "Answer: <Sales Agent.content ?? Support Agent.content>",
      cursor: 54,
    });
    const tight = "<Sales Agent.content ??";
    expect(
      applyCompletion(tight, tight.length, findTrigger(tight, tight.length)!, { value: "Support Agent.content" }).text,
    ).toBe("<Sales Agent.content ?? Support Agent.content>");
  });
  it("offers only upstream blocks' outputs, with start inputs by name", () => {
    const blocks = [
      block("start", "start", "Start", { config: { inputs: [{ name: "message", type: "string" }] } }),
      block("agent1", "agent", "Agent"),
      block("resp", "response", "Response"),
    ];
    const edges = [
      { id: "e1", source: "start", target: "agent1" },
      { id: "e2", source: "agent1", target: "resp" },
    ];
    const forAgent = referenceItemsFor(blocks, edges, {}, "agent1").map((item) => item.value);
    expect(forAgent).toEqual(["Start.message"]);
    const forResponse = referenceItemsFor(blocks, edges, { company: "Acme" }, "resp").map((item) => item.value);
    expect(forResponse).toContain("Agent.content");
    expect(forResponse).toContain("variable.company");
  });
});

describe("issuesByBlock", () => {
  it("files issues under their block with block-relative paths", () => {
    const document = {
      name: "w",
      description: "",
      variables: {},
      blocks: [block("a", "agent", "A")],
      edges: [{ id: "e1", source: "a", target: "x" }],
    };
    const filed = issuesByBlock(document, [
      { path: "blocks[0].config.userPrompt", message: "is required" },
      { path: "edges[0].target", message: "missing" },
      { path: "blocks", message: "needs a start" },
    ]);
    expect(filed.byBlock.a).toEqual([
      { path: "config.userPrompt", message: "is required" },
      { path: "", message: "missing" },
    ]);
    expect(filed.workflow.map((issue) => issue.message)).toEqual(["missing", "needs a start"]);
  });
});
