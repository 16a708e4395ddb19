import { describe, expect, it } from "vitest";
import { workflowDocumentSchema } from "@/contract";
import { executeWorkflow } from "@/executor";
import { createModelRegistry } from "@/providers";
import { createRouterHandler } from "./router/handler";
import { controlHandlers, lookupHandlers, type BlockHandlers } from "./handlers";
import { startHandler } from "./start/handler";
import { lookupBlockType } from "./type-info";

describe("block handlers bound to their block types", () => {
  it("get their config parsed by the engine, with the definition's defaults", async () => {
    // The start block's `inputs` defaults to []: its handler would fail on the raw `{}`.
    const document = workflowDocumentSchema.parse({
      name: "Defaults",
      blocks: [
        { id: "start", type: "start", name: "Start", config: {} },
        { id: "reply", type: "response", name: "Reply", config: { data: "<start.topic>" } },
      ],
      edges: [{ id: "e1", source: "start", target: "reply" }],
    });
    const result = await executeWorkflow({
      document,
      lookupBlockType,
      lookupHandler: lookupHandlers(controlHandlers),
      observer: { event: () => undefined, span: () => undefined },
      runId: "r",
      workflowId: "w",
      input: { topic: "refunds" },
    });
    expect(result).toMatchObject({ status: "succeeded", output: "refunds" });
  });

  it("offer no handler for a type without one", () => {
    const lookup = lookupHandlers(controlHandlers);
    expect(lookup("start")).toBeDefined();
    expect(lookup("loop")).toBeUndefined();
    expect(lookup("nonsense")).toBeUndefined();
  });

  it("refuse, at compile time, a handler written for another block type's config", () => {
    const router = createRouterHandler({ models: createModelRegistry({ env: () => undefined }) });
    // @ts-expect-error: the router's handler takes the router's config, not the agent's
    const agentSlot: Partial<BlockHandlers> = { agent: router };
    // @ts-expect-error: the start handler needs `inputs`, which a response config does not have
    const responseSlot: Partial<BlockHandlers> = { response: startHandler };
    expect([agentSlot, responseSlot]).toHaveLength(2);
  });
});
