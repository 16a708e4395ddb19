import { describe, expect, it } from "vitest";
import type { IssueDetail, WorkflowBlock, WorkflowDocument, WorkflowEdge } from "@/contract";
import { GraphValidationError } from "@/core";
import { parseWorkflowDocument } from "@/lib/workflows/parse-document";
import { createEditorStore } from "../store/editor-store";
import { canvasConnectionProblem, isValidCanvasConnection } from "./canvas-connection-problem";
import { documentToFlow } from "./document-flow";

/**
 * One set of graph rules: every connection the canvas lets the user draw is one the server's save
 * path accepts, and every one it refuses the server refuses too. Each row asserts the expected
 * answer on both sides, so the test fails when either side drifts.
 */

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
let edgeCount = 0;
const edge = (source: string, target: string, sourceHandle = "out"): WorkflowEdge => ({
  id: `e${(edgeCount += 1)}`,
  source,
  target,
  sourceHandle,
});

/** A support workflow: a router and a condition at the top, a loop holding a parallel container, a disabled block. */
const base: WorkflowDocument = {
  name: "Support",
  description: "",
  variables: {},
  blocks: [
    block("start", "start", "Start", { config: { inputs: [{ name: "message", type: "string" }] } }),
    block("triage", "agent", "Triage", { config: { model: "offline/echo", userPrompt: "<Start.message>" } }),
    block("route", "router", "Route"),
    block("check", "condition", "Check", {
      config: { branches: [{ id: "urgent", expression: "true" }, { id: "normal" }] },
    }),
    block("each", "loop", "Each ticket", { config: { kind: "for", count: 2 } }),
    block("draft", "agent", "Draft", { parentId: "each", config: { model: "offline/echo", userPrompt: "draft" } }),
    block("review", "function", "Review", { parentId: "each", config: { code: "return 1" } }),
    block("fanout", "parallel", "Fan out", { parentId: "each" }),
    block("lookup", "function", "Lookup", { parentId: "fanout", config: { code: "return 2" } }),
    block("summarize", "agent", "Summarize", {
      parentId: "fanout",
      config: { model: "offline/echo", userPrompt: "sum" },
    }),
    block("polish", "function", "Polish", { parentId: "each", config: { code: "return 3" } }),
    block("fallback", "function", "Fallback", { config: { code: "return 4" } }),
    block("archive", "function", "Archive", { enabled: false, config: { code: "return 5" } }),
    block("reply", "response", "Reply"),
  ],
  edges: [
    edge("start", "triage"),
    edge("triage", "route"),
    edge("route", "check"),
    edge("check", "each", "branch:urgent"),
    edge("check", "reply", "branch:normal"),
    edge("each", "draft", "body"),
    edge("draft", "review"),
    edge("review", "fanout"),
    edge("fanout", "lookup", "body"),
    edge("lookup", "summarize"),
    edge("each", "reply"),
    edge("triage", "fallback", "error"),
    edge("fallback", "reply"),
    edge("route", "archive"),
  ],
};

interface Row {
  name: string;
  source: string;
  target: string;
  handle?: string;
  /** Null when both sides must accept the edge; otherwise what both sides' refusals must say. */
  refused: RegExp | null;
}

const rows: Row[] = [
  { name: "a second way into the response", source: "route", target: "reply", refused: null },
  { name: "start straight to the response", source: "start", target: "reply", refused: null },
  {
    name: "an error edge beside an out edge to the same block",
    source: "draft",
    target: "review",
    handle: "error",
    refused: null,
  },
  {
    name: "a second target for an existing branch",
    source: "check",
    target: "fallback",
    handle: "branch:urgent",
    refused: null,
  },
  { name: "into a container from the top level", source: "route", target: "each", refused: null },
  { name: "a nested container's out edge to a sibling", source: "fanout", target: "polish", refused: null },
  { name: "a second body edge to a child", source: "each", target: "review", handle: "body", refused: null },
  {
    name: "a parallel container's body to its child",
    source: "fanout",
    target: "summarize",
    handle: "body",
    refused: null,
  },
  { name: "from inside a container back to it (iteration end)", source: "review", target: "each", refused: null },
  { name: "from a disabled block onwards", source: "archive", target: "reply", refused: null },
  {
    name: "a branch handle on an agent",
    source: "triage",
    target: "reply",
    handle: "branch:urgent",
    refused: /'Triage' has no 'branch:urgent' handle \(it offers: out, error\)/,
  },
  {
    name: "a condition branch that does not exist",
    source: "check",
    target: "fallback",
    handle: "branch:later",
    refused: /'Check' has no 'branch:later' handle \(it offers: branch:urgent, branch:normal, error\)/,
  },
  {
    name: "out of the response, which has no handles",
    source: "reply",
    target: "fallback",
    refused: /'Reply' has no 'out' handle \(it offers: none\)/,
  },
  {
    name: "a body edge from a block that is not a container",
    source: "triage",
    target: "route",
    handle: "body",
    refused: /'Triage' has no 'body' handle/,
  },
  {
    name: "into the start block",
    source: "triage",
    target: "start",
    refused: /start block 'Start' accepts no incoming edges/,
  },
  {
    name: "a disabled block into the start block",
    source: "archive",
    target: "start",
    refused: /start block 'Start' accepts no incoming edges/,
  },
  { name: "a block to itself", source: "route", target: "route", refused: /'Route' is connected to itself/ },
  {
    name: "the same connection twice",
    source: "start",
    target: "triage",
    refused: /'Start' is already connected to 'Triage' from its 'out' handle/,
  },
  {
    name: "the same body edge twice",
    source: "each",
    target: "draft",
    handle: "body",
    refused: /'Each ticket' is already connected to 'Draft' from its 'body' handle/,
  },
  {
    name: "from the top level into a container's child",
    source: "triage",
    target: "draft",
    refused: /crosses a container boundary/,
  },
  {
    name: "from inside a container to a block outside it",
    source: "review",
    target: "reply",
    refused: /crosses a container boundary/,
  },
  {
    name: "from a nested block to its outer container",
    source: "summarize",
    target: "each",
    refused: /crosses a container boundary/,
  },
  {
    name: "between children of nested containers",
    source: "lookup",
    target: "polish",
    refused: /crosses a container boundary/,
  },
  {
    name: "a body edge to a block outside the container",
    source: "each",
    target: "reply",
    handle: "body",
    refused: /'Reply' is not inside 'Each ticket'/,
  },
  {
    name: "a body edge to a grandchild",
    source: "each",
    target: "lookup",
    handle: "body",
    refused: /'Lookup' is not inside 'Each ticket'/,
  },
  { name: "a direct cycle", source: "route", target: "triage", refused: /cycle/ },
  {
    name: "an indirect cycle through a branch",
    source: "check",
    target: "triage",
    handle: "branch:normal",
    refused: /cycle/,
  },
  { name: "a cycle through an error edge", source: "fallback", target: "triage", refused: /cycle/ },
  { name: "a cycle inside a container", source: "review", target: "draft", refused: /cycle/ },
  { name: "a cycle inside a nested container", source: "summarize", target: "lookup", refused: /cycle/ },
  { name: "a cycle through a disabled block", source: "archive", target: "route", refused: /cycle/ },
];

/** What the server's save path does with the document: stored (with its draft issues), or refused with its problems. */
function save(
  document: WorkflowDocument,
): { accepted: true; issues: IssueDetail[] } | { accepted: false; problems: string[] } {
  try {
    return { accepted: true, issues: parseWorkflowDocument(document).issues };
  } catch (error) {
    if (!(error instanceof GraphValidationError)) throw error;
    return { accepted: false, problems: error.details.map((issue) => issue.message) };
  }
}

describe("the canvas and the server's save validation agree on every connection", () => {
  const saved = save(base);
  const flow = documentToFlow(base);

  it("starts from a document the server stores", () => {
    expect(saved.accepted).toBe(true);
  });

  it.each(rows)("$name", ({ source, target, handle = "out", refused }) => {
    const connection = { source, target, sourceHandle: handle };
    const allowed = isValidCanvasConnection(flow.nodes, flow.edges, connection);
    const server = save({ ...base, edges: [...base.edges, { id: "candidate", ...connection }] });

    expect(allowed).toBe(refused === null);
    expect(server.accepted).toBe(allowed);
    const store = createEditorStore({
      ...base,
      id: "wf1",
      version: 1,
      createdAt: "2026-01-01T00:00:00.000Z",
      updatedAt: "2026-01-01T00:00:00.000Z",
    });
    expect(store.getState().connect({ ...connection, targetHandle: null }) === null).toBe(allowed);

    if (server.accepted) {
      // Nothing new to finish either: the edge adds no draft issue.
      expect(saved.accepted && server.issues).toEqual(saved.accepted && saved.issues);
      return;
    }
    const problem = canvasConnectionProblem(flow.nodes, flow.edges, connection)!;
    expect(problem).toMatch(refused!);
    expect(server.problems.some((message) => refused!.test(message))).toBe(true);
    // Outside cycles (which the canvas words as "would close"), the canvas says what the server says.
    if (!/cycle/.test(problem)) expect(server.problems).toContain(problem);
  });
});
