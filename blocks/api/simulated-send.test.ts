import { describe, expect, it } from "vitest";
import type { BlockTesting, SimulationSource } from "@/contract";
import { createSimulation } from "@/executor";
import type { GuardedFetch } from "@/net";
import { createInMemoryHandlerContext } from "@/providers/testing/in-memory-handler-context";
import { withConfigParsing } from "../__fixtures__/with-config-parsing";
import { createApiHandler } from "./handler";

/** The API handler in a test run: `sent` records anything that reached the real fetch (nothing should). */
function testRun(testing: BlockTesting | undefined) {
  const sent: string[] = [];
  const marks: SimulationSource[] = [];
  const fetch: GuardedFetch = async (request) => {
    sent.push(request.url);
    throw new Error("a test run must not send");
  };
  const handler = withConfigParsing("api", createApiHandler({ fetch, sleep: async () => {} }));
  const context = createInMemoryHandlerContext({
    block: { name: "Create Order", type: "api" },
    simulation: createSimulation("Create Order", testing, (source) => void marks.push(source)),
  });
  const run = (config: Record<string, unknown>) =>
    handler({
      config: { url: "https://orders.example.com/orders", method: "POST", body: { item: "book" }, ...config },
      inputs: {},
      context,
    });
  return { run, sent, marks };
}

describe("the API block in a test run", () => {
  it("answers from the sample as a real answer would be read: JSON into data, text as text", async () => {
    const json = testRun({ http: { status: 201, headers: { "X-Order": "7" }, body: { orderId: 7 } } });
    expect((await json.run({})).output).toEqual({
      status: 201,
      headers: { "x-order": "7", "content-type": "application/json" },
      data: { orderId: 7 },
    });
    expect(json.marks).toEqual(["sample"]);
    const text = testRun({ http: { status: 200, body: "accepted" } });
    expect((await text.run({})).output).toMatchObject({ status: 200, data: "accepted" });
    expect([...json.sent, ...text.sent]).toEqual([]);
  });

  it("fails on a 5xx sample like on a real one, after its retries, still sending nothing", async () => {
    const failing = testRun({ http: { status: 503, body: { error: "down" } } });
    await expect(failing.run({ retries: 2 })).rejects.toMatchObject({
      code: "http_error",
      message: expect.stringContaining("answered 503"),
    });
    expect(failing.marks).toEqual(["sample", "sample", "sample"]);
    expect(failing.sent).toEqual([]);
  });

  it("without a sample answers status 0 and data saying so, and the block succeeds", async () => {
    const bare = testRun(undefined);
    const { output } = await bare.run({});
    expect(output).toMatchObject({ status: 0, data: { simulated: "no-sample" } });
    expect((output.data as { noSample: string }).noSample).toBe(
      `Test run: the POST request was not made, and block 'Create Order' has no test sample for it. Add one under "Test sample" in the block's inspector.`,
    );
    expect(bare.marks).toEqual(["no-sample"]);
    expect(bare.sent).toEqual([]);
  });
});
