import { describe, expect, it, vi } from "vitest";
import { workflowDocumentSchema, type RunEvent, type SpanRecord } from "@/contract";
import { executeWorkflow, type SandboxError } from "@/executor";
import { createInMemoryHandlerContext } from "@/providers/testing/in-memory-handler-context";
import { SandboxGate, sandboxFootprintMb } from "@/sandbox";
import { withConfigParsing } from "../__fixtures__/with-config-parsing";
import { controlHandlers, lookupHandlers } from "../handlers";
import { lookupBlockType } from "../type-info";
import { createFunctionHandler } from "./handler";
import { createSimulatedServices, type FunctionHostServices } from "./host-services";

/** Services whose fetch holds every call until the test lets go, recording the order calls came in. */
function heldFetch() {
  let letGo!: () => void;
  const released = new Promise<void>((resolve) => (letGo = resolve));
  const arrivals: string[] = [];
  const services: FunctionHostServices = {
    agent: createSimulatedServices().agent,
    async fetch(url) {
      arrivals.push(new URL(url).pathname.slice(1));
      await released;
      return { status: 200, ok: true, headers: {}, body: null };
    },
  };
  return { services, arrivals, letGo };
}

describe("function blocks under load", () => {
  it("run two at a time with a concurrency of 2, and the third's trace shows it waited", async () => {
    const gate = new SandboxGate({ concurrency: 2, memoryMb: 4096 });
    const held = heldFetch();
    const names = ["first", "second", "third"];
    const document = workflowDocumentSchema.parse({
      name: "Three functions",
      blocks: [
        { id: "start", type: "start", name: "Start" },
        ...names.map((name) => ({
          id: name,
          type: "function",
          name,
          config: { code: `await services.fetch("https://api.example.com/${name}"); return "${name}"` },
        })),
      ],
      edges: names.map((name) => ({ id: `to-${name}`, source: "start", target: name })),
    });
    const spans = new Map<string, SpanRecord>();
    const events: RunEvent[] = [];
    const running = executeWorkflow({
      document,
      lookupBlockType,
      lookupHandler: lookupHandlers({
        ...controlHandlers,
        function: createFunctionHandler({ services: () => held.services, gate }),
      }),
      observer: { event: (event) => events.push(event), span: (span) => spans.set(span.id, structuredClone(span)) },
      runId: "run-1",
      workflowId: "workflow-1",
    });

    // Two are inside their sandboxes, held in services.fetch; the third waits for a slot.
    await vi.waitFor(() => expect(held.arrivals).toHaveLength(2), { timeout: 20_000 });
    await vi.waitFor(() => expect(gate.stats()).toMatchObject({ running: 2, waiting: 1 }));
    expect(held.arrivals).toHaveLength(2);
    held.letGo();
    expect((await running).status).toBe("succeeded");

    const [waited] = names.filter((name) => !held.arrivals.slice(0, 2).includes(name));
    expect(held.arrivals).toEqual([...held.arrivals.slice(0, 2), waited]);
    const blockSpans = [...spans.values()].filter((span) => span.kind === "block" && span.blockType === "function");
    const queuedMs = Object.fromEntries(
      blockSpans.map((span) => [span.blockId, (span.output as { sandbox: { queuedMs: number } }).sandbox.queuedMs]),
    );
    expect(queuedMs[waited!]).toBeGreaterThan(0);
    for (const name of held.arrivals.slice(0, 2)) expect(queuedMs[name]).toBe(0);
    const notices = events.filter(
      (event) => event.type === "block.delta" && event.text.startsWith("Waiting for a sandbox slot"),
    );
    expect(notices.map((event) => ("blockId" in event ? event.blockId : null))).toEqual([waited]);
    expect(gate.stats().peakRunning).toBe(2);
  });

  it("keep many memory-hungry blocks within the server's sandbox memory, each failing or succeeding by its own limit", async () => {
    const limitMb = 32;
    const cap = 3 * sandboxFootprintMb(limitMb * 1024 * 1024);
    const gate = new SandboxGate({ concurrency: 12, memoryMb: cap });
    const handler = withConfigParsing(
      "function",
      createFunctionHandler({ services: () => createSimulatedServices(), gate }),
    );
    // Even blocks fill half their heap and finish; odd ones allocate until their limit stops them.
    const within = "const a = []; for (let i = 0; i < 16; i++) a.push('x'.repeat(1 << 20) + i); return a.length";
    const beyond = "const a = []; while (true) a.push('x'.repeat(1 << 20) + a.length);";
    const baseline = process.memoryUsage().rss;
    let peakRss = baseline;
    const sampler = setInterval(() => (peakRss = Math.max(peakRss, process.memoryUsage().rss)), 10);
    const outcomes = await Promise.allSettled(
      Array.from({ length: 12 }, (_, index) =>
        handler({
          config: { code: index % 2 === 0 ? within : beyond, memoryLimitMb: limitMb, timeoutMs: 30_000 },
          inputs: {},
          context: createInMemoryHandlerContext(),
        }),
      ),
    );
    clearInterval(sampler);

    outcomes.forEach((outcome, index) => {
      if (index % 2 === 0) {
        expect(outcome.status).toBe("fulfilled");
        expect((outcome as PromiseFulfilledResult<{ output: Record<string, unknown> }>).value.output.result).toBe(16);
      } else {
        expect(outcome.status).toBe("rejected");
        const error = (outcome as PromiseRejectedResult).reason as SandboxError;
        expect(error.code).toBe("sandbox_memory");
        expect(error.message).toContain(`${limitMb} MB`);
      }
    });
    expect(gate.stats().peakReservedMb).toBeLessThanOrEqual(cap);
    expect(gate.stats().peakRunning).toBe(3);
    // What the reservation stands for: the process never grew by more than the cap.
    expect((peakRss - baseline) / (1024 * 1024)).toBeLessThan(cap);
  });
});
