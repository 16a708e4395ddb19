import { describe, expect, it } from "vitest";
import { executeWorkflow } from "@/executor/engine";
import { workflowDocumentSchema, type RunEvent } from "@/contract";
import { controlHandlers, lookupHandlers } from "../handlers";
import { lookupBlockType } from "../type-info";

describe("response handler with the real block registry", () => {
  it("ends the run with its resolved data as the output", async () => {
    const document = workflowDocumentSchema.parse({
      name: "Echo",
      blocks: [
        { id: "start", type: "start", name: "Start", config: { inputs: [{ name: "name", type: "string" }] } },
        {
          id: "reply",
          type: "response",
          name: "Reply",
          config: { data: { greeting: "Hello <start.name>", raw: "<start.name>" } },
        },
      ],
      edges: [{ id: "e1", source: "start", target: "reply" }],
    });
    const events: RunEvent[] = [];
    const result = await executeWorkflow({
      document,
      lookupBlockType,
      lookupHandler: lookupHandlers(controlHandlers),
      observer: { event: (event) => events.push(event), span: () => undefined },
      runId: "r1",
      workflowId: "w1",
      input: { name: "Ada" },
    });
    expect(result).toMatchObject({ status: "succeeded", output: { greeting: "Hello Ada", raw: "Ada" } });
    expect(events.at(-1)).toMatchObject({ type: "run.completed", output: { greeting: "Hello Ada", raw: "Ada" } });
  });
});
