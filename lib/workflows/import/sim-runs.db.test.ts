import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { fixture, startImportRunKit, type ImportRunKit } from "./__fixtures__/import-run-kit";

/**
 * Sim exports imported through the endpoint and run on the real engine with the test LLM server
 * as every model: seed 003's router example (the Sales and Support agents, their ids and
 * prompts), and a flow of evaluator, condition, loop and function blocks.
 */

let kit: ImportRunKit;
beforeAll(async () => {
  kit = await startImportRunKit();
});
afterAll(() => kit?.close());

const SALES = "2acd9007-27e8-4510-a487-73d3b825e7c1";
const SUPPORT = "3bde0118-38f9-5621-b598-84e4c936f8d2";

describe("Sim exports, imported and run", () => {
  it("seed 003's router example: the router picks the Sales Agent by its Sim id and only that path runs", async () => {
    const { workflow, report } = await kit.importFile(fixture("sim/support-routing.json"));
    expect(report.notMapped).toEqual([]);
    expect(workflow.issues).toEqual([]);
    expect(workflow.name).toBe("Customer inquiry routing");
    const sales = workflow.blocks.find((block) => block.id === SALES)!;
    expect(sales.config).toMatchObject({
      model: "openai/gpt-4o-mini",
      temperature: 0.7,
      userPrompt: "<start.message>",
    });
    kit.kit.server.enqueue({ kind: "text", text: SALES }, { kind: "text", text: "The Pro plan costs $20 a month." });

    const run = await kit.run(workflow.id, { message: "How much does the Pro plan cost?" });

    expect(run.status).toBe("succeeded");
    expect(run.output).toEqual({ answer: "The Pro plan costs $20 a month.", team: "sales" });
    expect(run.spans.some((span) => span.kind === "block" && span.blockId === SUPPORT)).toBe(false);
    const routerPrompt = kit.kit.server.requests.at(-2)!.parsed;
    expect(routerPrompt.systemText).toContain(SALES);
    expect(routerPrompt.systemText).toContain(SUPPORT);
    expect(kit.kit.server.pending()).toBe(0);
  });

  it("the router's other choice reaches the Support Response, whose structured fields became the answer's", async () => {
    const { workflow } = await kit.importFile(fixture("sim/support-routing.json"));
    kit.kit.server.enqueue({ kind: "text", text: SUPPORT }, { kind: "text", text: "Try restarting the app." });

    const run = await kit.run(workflow.id, { message: "The app crashes on start" });

    expect(run.output).toEqual({ answer: "Try restarting the app.", team: "support" });
  });

  it("evaluator, condition, forEach loop and function: a good score publishes one post per channel; the Slack block is listed as not mapped", async () => {
    const { workflow, report } = await kit.importFile(fixture("sim/blurb-review.json"));
    expect(report.notMapped.map((item) => item.what)).toEqual([
      "state.blocks.slack-1 (slack 'Notify Slack')",
      "state.edges[7] (writer-1 → slack-1)",
    ]);
    expect(workflow.variables).toEqual({ company: "Acme" });
    const condition = workflow.blocks.find((block) => block.type === "condition")!;
    expect(condition.config.branches).toEqual([
      {
        id: "condition-1-if",
        label: "if",
        expression: "<evaluator.accuracy> >= 7 && contains(<writer.content>, 'Acme')",
      },
      { id: "condition-1-else", label: "else" },
    ]);
    kit.kit.server.enqueue(
      { kind: "text", text: "Acme rockets: fast and friendly." },
      { kind: "text", text: '{"accuracy": 8}' },
    );

    const run = await kit.run(workflow.id, { topic: "rockets" });

    expect(run.status).toBe("succeeded");
    const output = run.output as { posts: Array<{ result: string }>; score: number };
    expect(output.posts.map((post) => post.result)).toEqual([
      "web: Acme rockets: fast and friendly.",
      "email: Acme rockets: fast and friendly.",
    ]);
    expect(output.score).toBe(8);
    expect(kit.kit.server.requests.at(-2)!.parsed.userTexts.join("\n")).toContain(
      "Write a blurb about rockets for Acme.",
    );
  });

  it("a low score takes the else branch to the Rejected response", async () => {
    const { workflow } = await kit.importFile(fixture("sim/blurb-review.json"));
    kit.kit.server.enqueue({ kind: "text", text: "Acme rockets." }, { kind: "text", text: '{"accuracy": 3}' });

    const run = await kit.run(workflow.id, { topic: "rockets" });

    expect(run.output).toEqual({ rejected: "Acme rockets.", score: 3 });
  });
});
