import net from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ApiRun } from "@/contract";
import { testMember } from "@/lib/http/test-members";
import { startRunTestKit, supportRoutingDocument, type RunTestKit } from "@/lib/runs/__fixtures__/run-test-kit";
import { processMetrics } from "../metrics/trellis-metrics";
import { startTracing } from "./process-tracing";
import type { TracingSdk } from "./tracing-sdk";

/** Issue 34: an OTLP endpoint that is down costs a run nothing; the exporter drops the spans and counts them. */

let kit: RunTestKit;
let sdk: TracingSdk;

/** A port nothing listens on: bound, then closed. */
async function closedPort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

beforeAll(async () => {
  process.env.OTEL_EXPORTER_OTLP_ENDPOINT = `http://127.0.0.1:${await closedPort()}`;
  sdk = (await startTracing())!;
  kit = await startRunTestKit();
}, 60_000);

afterAll(async () => {
  await kit?.close();
});

const dropped = async () =>
  (await processMetrics().traceSpans.get()).values.find((value) => value.labels.outcome === "dropped")?.value ?? 0;

describe("an OTLP endpoint that is down", () => {
  it("lets runs succeed as fast as with none, and the exporter counts what it dropped", async () => {
    expect(sdk).toBeDefined();
    const workspaceId = await kit.database.createWorkspace();
    const member = testMember(workspaceId, "editor");
    const workflow = await kit.database.repositories.workflows.create(
      workspaceId,
      supportRoutingDocument("openai/gpt-4o-mini") as never,
    );
    const run = async () => {
      const started = Date.now();
      const answer = await kit.endpoints.start(
        new Request(`http://localhost/api/workflows/${workflow.id}/runs`, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({ input: { message: "I need support" }, wait: true }),
        }),
        { id: workflow.id },
        member,
      );
      expect(((await answer.json()) as ApiRun).status).toBe("succeeded");
      return Date.now() - started;
    };
    // The first run warms the process up (the test LLM server, the tokenizer); its spans' export fails.
    const before = await dropped();
    await run();
    void sdk.flush().catch(() => {});
    await expect.poll(dropped, { timeout: 20_000 }).toBeGreaterThan(before);
    // With the exporter failing (and retrying), runs go on at their pace: none waits for it.
    const failing = await dropped();
    const durations = [await run(), await run(), await run()];
    expect(Math.max(...durations)).toBeLessThan(3_000);
    void sdk.flush().catch(() => {});
    await expect.poll(dropped, { timeout: 20_000 }).toBeGreaterThan(failing);
  }, 60_000);
});
