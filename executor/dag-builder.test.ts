import { describe, expect, it } from "vitest";
import { block, edge, lookupFakeType, workflow } from "./__fixtures__/fake-blocks";
import { buildGraph, validateWorkflow } from "./dag-builder";
import { GraphValidationError } from "@/core";

const issues = (document: ReturnType<typeof workflow>) => validateWorkflow(document, lookupFakeType);

describe("workflow validation", () => {
  it("accepts a valid workflow", () => {
    expect(issues(workflow([block("start", "start"), block("a", "task", { count: 2 })], [edge("start", "a")]))).toEqual(
      [],
    );
  });

  it("reports unknown types, duplicate ids and names that clash ignoring case and spaces", () => {
    const document = workflow(
      [
        block("start", "start"),
        block("a", "mystery"),
        block("b", "task", {}, { name: "Support Agent" }),
        block("b", "task", {}, { name: "supportagent" }),
        block("loopy", "task", {}, { name: "Loop" }),
      ],
      [],
    );
    expect(issues(document)).toEqual([
      { path: "blocks[1].type", message: "Block 'a' has unknown block type 'mystery'" },
      { path: "blocks[3].id", message: "Duplicate block id 'b' (blocks 'Support Agent' and 'supportagent')" },
      {
        path: "blocks[3].name",
        message:
          "Block name 'supportagent' is already used by block 'Support Agent' (names must differ ignoring case and spaces)",
      },
      { path: "blocks[4].name", message: "Block name 'Loop' is reserved for <loop.…> references; choose another name" },
    ]);
  });

  it("reports dangling edges, missing handles and edges into the start block", () => {
    const document = workflow(
      [
        block("start", "start"),
        block("a", "task"),
        block("check", "condition", { branches: [{ id: "yes", expression: "true" }] }),
      ],
      [
        edge("start", "ghost"),
        edge("nobody", "a"),
        edge("a", "check", "branch:yes"),
        edge("check", "a", "branch:no"),
        edge("a", "start"),
      ],
    );
    expect(issues(document)).toEqual([
      { path: "edges[0].target", message: "Edge 'start->ghost' ends at block 'ghost', which does not exist" },
      { path: "edges[1].source", message: "Edge 'nobody->a' starts at block 'nobody', which does not exist" },
      { path: "edges[2].sourceHandle", message: "Block 'a' has no 'branch:yes' handle (it offers: out, error)" },
      {
        path: "edges[3].sourceHandle",
        message: "Block 'check' has no 'branch:no' handle (it offers: branch:yes, error)",
      },
      { path: "edges[4].target", message: "The start block 'start' accepts no incoming edges (edge from 'a')" },
    ]);
  });

  it("requires exactly one start block", () => {
    expect(issues(workflow([block("a", "task")], []))).toEqual([
      { path: "blocks", message: "The workflow needs one enabled start block" },
    ]);
    expect(issues(workflow([block("s1", "start"), block("s2", "start")], []))).toEqual([
      { path: "blocks[1]", message: "Only one start block is allowed: found 's1', 's2'" },
    ]);
  });

  it("refuses a cycle and names the blocks around it; loops go through a container", () => {
    const document = workflow(
      [block("start", "start"), block("a", "task"), block("b", "task"), block("c", "task")],
      [edge("start", "a"), edge("a", "b"), edge("b", "c"), edge("c", "a")],
    );
    expect(issues(document)).toEqual([
      {
        path: "edges[3]",
        message:
          "A cycle runs through 'a' → 'b' → 'c' → 'a'; repeat work with a loop container instead, or give the edge that goes back a cap (maxRetries)",
      },
    ]);
    const throughLoop = workflow(
      [
        block("start", "start"),
        block("loop1", "loop", { kind: "for", count: 2 }),
        block("x", "task", {}, { parentId: "loop1" }),
        block("y", "task", {}, { parentId: "loop1" }),
      ],
      [edge("start", "loop1"), edge("loop1", "x", "body"), edge("x", "y"), edge("y", "loop1")],
    );
    expect(issues(throughLoop)).toEqual([]);
  });

  it("checks containers: missing or non-container parents, body edges and edges crossing the boundary", () => {
    const document = workflow(
      [
        block("start", "start"),
        block("loop1", "loop"),
        block("inner", "task", {}, { parentId: "loop1" }),
        block("orphan", "task", {}, { parentId: "gone" }),
        block("wrong", "task", {}, { parentId: "start" }),
        block("outside", "task"),
      ],
      [edge("start", "loop1"), edge("loop1", "outside", "body"), edge("inner", "outside"), edge("start", "inner")],
    );
    expect(issues(document)).toEqual([
      { path: "blocks[3].parentId", message: "Block 'orphan' is inside 'gone', which does not exist" },
      {
        path: "blocks[4].parentId",
        message: "Block 'wrong' is inside 'start', which is a start block, not a loop or parallel container",
      },
      {
        path: "edges[1]",
        message: "A body edge must go from a container to a block inside it, but 'outside' is not inside 'loop1'",
      },
      {
        path: "edges[2]",
        message:
          "The edge from 'inner' (inside 'loop1') to 'outside' (at the top level) crosses a container boundary; use the container's body and out handles",
      },
      {
        path: "edges[3]",
        message:
          "The edge from 'start' (at the top level) to 'inner' (inside 'loop1') crosses a container boundary; use the container's body and out handles",
      },
    ]);
  });

  it("refuses a second edge for the same connection, and holds edges of disabled blocks to the edge and cycle rules", () => {
    const document = workflow(
      [
        block("start", "start"),
        block("a", "task"),
        block("off", "task", {}, { enabled: false }),
        block("loop1", "loop", {}, { enabled: false }),
        block("inner", "task", {}, { parentId: "loop1" }),
      ],
      [
        edge("start", "a"),
        { id: "again", source: "start", target: "a", sourceHandle: "out" },
        edge("start", "a", "error"),
        edge("a", "off"),
        edge("off", "a"),
        edge("off", "start"),
        edge("a", "inner"),
      ],
    );
    expect(issues(document)).toEqual([
      { path: "edges[1]", message: "'start' is already connected to 'a' from its 'out' handle" },
      { path: "edges[2].sourceHandle", message: "Block 'start' has no 'error' handle (it offers: out)" },
      { path: "edges[5].target", message: "The start block 'start' accepts no incoming edges (edge from 'off')" },
      {
        path: "edges[6]",
        message:
          "The edge from 'a' (at the top level) to 'inner' (inside 'loop1') crosses a container boundary; use the container's body and out handles",
      },
      {
        path: "edges[4]",
        message:
          "A cycle runs through 'a' → 'off' → 'a'; repeat work with a loop container instead, or give the edge that goes back a cap (maxRetries)",
      },
    ]);
  });

  it("validates configs but lets a whole-field reference stand in for a number or an array", () => {
    const document = workflow(
      [
        block("start", "start"),
        block("a", "task", { count: "<start.n>", items: "<start.list>" }),
        block("b", "task", { count: "three", model: "" }),
        block("c", "task", { count: "<start.n> items" }),
      ],
      [edge("start", "a"), edge("a", "b"), edge("b", "c")],
    );
    expect(issues(document)).toEqual([
      { path: "blocks[2].config.count", message: "Block 'b': count: expected number" },
      { path: "blocks[2].config.model", message: "Block 'b': model: choose a model" },
      { path: "blocks[3].config.count", message: "Block 'c': count: expected number" },
    ]);
  });

  it("finds references to unknown or disabled blocks, undefined variables and loop references outside loops at save time", () => {
    const document = workflow(
      [
        block("start", "start"),
        block("a", "task", { value: "<Nope.x> <variable.missing> <loop.index> <start.topic> <variable.known>" }),
        block("off", "task", {}, { enabled: false }),
        block("b", "task", { value: "<off.value> <b.value> <Start.topic>" }),
      ],
      [edge("start", "a"), edge("a", "b")],
      { known: 1 },
    );
    expect(issues(document)).toEqual([
      { path: "blocks[1].config.value", message: "Block 'a': <Nope.x> refers to no block named or with id 'Nope'" },
      {
        path: "blocks[1].config.value",
        message: "Block 'a': <variable.missing> names no workflow variable (defined: known)",
      },
      { path: "blocks[1].config.value", message: "Block 'a': <loop.index> is only available inside a loop container" },
      { path: "blocks[3].config.value", message: "Block 'b': <off.value> refers to 'off', which is disabled" },
      { path: "blocks[3].config.value", message: "Block 'b': <b.value> refers to the block itself" },
    ]);
  });

  it("checks expression syntax at save time, positions counted in the text as written", () => {
    const document = workflow(
      [
        block("start", "start"),
        block("check", "condition", {
          branches: [
            { id: "a", expression: "<start.longName> > (1" },
            { id: "b", expression: "<start.x> == 'ok'" },
            { id: "c" },
          ],
        }),
      ],
      [edge("start", "check")],
    );
    expect(issues(document)).toEqual([
      {
        path: "blocks[1].config.branches[0].expression",
        message:
          "Block 'check': branches[0].expression: Expected ')' but found the end of the expression at position 22",
      },
    ]);
  });

  it("builds a graph without disabled or unreachable blocks, and throws every issue at once when invalid", () => {
    const graph = buildGraph(
      workflow(
        [
          block("start", "start"),
          block("a", "task"),
          block("off", "task", {}, { enabled: false }),
          block("island", "task"),
          block("b", "task"),
        ],
        [edge("start", "a"), edge("a", "off"), edge("off", "b")],
      ),
      lookupFakeType,
    );
    expect([...graph.nodesById.keys()]).toEqual(["start", "a"]);
    expect(graph.unreachable.map((unreachable) => unreachable.id)).toEqual(["island", "b"]);
    try {
      buildGraph(workflow([block("a", "task")], [edge("a", "zzz")]), lookupFakeType);
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(GraphValidationError);
      expect((error as GraphValidationError).message).toBe(
        "The workflow is invalid: The workflow needs one enabled start block (and 1 more problem)",
      );
      expect((error as GraphValidationError).details).toHaveLength(2);
    }
  });

  it("compiles containers into nested scopes with body edges and precomputed adjacency", () => {
    const graph = buildGraph(
      workflow(
        [
          block("start", "start"),
          block("loop1", "loop", { kind: "for", count: 1 }),
          block("x", "task", {}, { parentId: "loop1" }),
          block("after", "task"),
        ],
        [edge("start", "loop1"), edge("loop1", "x", "body"), edge("loop1", "after")],
      ),
      lookupFakeType,
    );
    const loop = graph.nodesById.get("loop1")!;
    expect(graph.root.nodes.map((node) => node.id)).toEqual(["start", "loop1", "after"]);
    expect(loop.body?.nodes.map((node) => node.id)).toEqual(["x"]);
    expect(loop.bodyEdges.map((bodyEdge) => bodyEdge.target.id)).toEqual(["x"]);
    expect(loop.outEdges.map((outEdge) => outEdge.target.id)).toEqual(["after"]);
    expect(graph.nodesById.get("x")!.scope.depth).toBe(1);
  });
});
