import { describe, expect, it } from "vitest";
import { isEmptyDocumentDiff, workflowDocumentSchema, type WorkflowDocumentInput } from "@/contract";
import { diffDocuments } from "./document-diff";

const doc = (input: Partial<WorkflowDocumentInput>) => workflowDocumentSchema.parse({ name: "Flow", ...input });

const start = { id: "start", type: "start", name: "Start", config: { inputs: [] } };
const agent = { id: "agent", type: "agent", name: "Writer", config: { model: "offline:echo", prompt: "Hi" } };
const response = { id: "out", type: "response", name: "Answer", config: {} };

describe("diffDocuments", () => {
  it("names blocks added, removed and changed, with the fields that differ", () => {
    const before = doc({ blocks: [start, agent], edges: [{ id: "e1", source: "start", target: "agent" }] });
    const after = doc({
      blocks: [
        start,
        { ...agent, name: "Editor", config: { model: "offline:echo", prompt: "Hello", temperature: 0.2 } },
        response,
      ],
      edges: [
        { id: "e1", source: "start", target: "agent" },
        { id: "e2", source: "agent", target: "out" },
      ],
    });
    expect(diffDocuments(before, after)).toEqual({
      blocksAdded: [{ id: "out", name: "Answer", type: "response" }],
      blocksRemoved: [],
      blocksChanged: [
        { id: "agent", name: "Editor", type: "agent", fields: ["name", "config.prompt", "config.temperature"] },
      ],
      edgesAdded: 1,
      edgesRemoved: 0,
      otherChanges: [],
    });
    expect(diffDocuments(after, before).blocksRemoved).toEqual([{ id: "out", name: "Answer", type: "response" }]);
  });

  it("does not count moving a block, reordering keys or re-making an edge under a new id as changes", () => {
    const before = doc({ blocks: [start, agent], edges: [{ id: "e1", source: "start", target: "agent" }] });
    const after = doc({
      blocks: [
        { ...agent, position: { x: 400, y: 90 }, config: { prompt: "Hi", model: "offline:echo" } },
        { ...start, position: { x: 10, y: 10 } },
      ],
      edges: [{ id: "renamed", source: "start", target: "agent" }],
    });
    const diff = diffDocuments(before, after);
    expect(isEmptyDocumentDiff(diff)).toBe(true);
  });

  it("reports the workflow's own parts that changed", () => {
    const diff = diffDocuments(
      doc({ variables: { tone: "dry" } }),
      doc({ name: "Renamed", variables: { tone: "warm" }, settings: { timeoutMs: 5000 } }),
    );
    expect(diff.otherChanges).toEqual(["name", "variables", "settings"]);
    expect(isEmptyDocumentDiff(diff)).toBe(false);
  });
});
