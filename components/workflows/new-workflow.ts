import type { StoredWorkflow, WorkflowDocumentInput } from "@/contract";

/** The document part of a stored workflow: what export writes and import reads. */
export function toDocument(workflow: StoredWorkflow): WorkflowDocumentInput {
  return {
    name: workflow.name,
    description: workflow.description,
    variables: workflow.variables,
    blocks: workflow.blocks,
    edges: workflow.edges,
  };
}

/** A new workflow starts with a Start block so it can run at once. */
export function newWorkflowDocument(name: string): WorkflowDocumentInput {
  return {
    name,
    blocks: [
      {
        id: "start",
        type: "start",
        name: "Start",
        position: { x: 80, y: 160 },
        config: { inputs: [{ name: "message", type: "string" }] },
      },
    ],
    edges: [],
  };
}
