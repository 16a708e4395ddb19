import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, type TestDatabase } from "@/lib/db/test-database";
import { testMember } from "@/lib/http/test-members";
import { createKnowledgeService, type KnowledgeService } from "@/lib/knowledge/knowledge-service";
import { runEndpoints, type RunEndpoints } from "@/lib/runs/run-endpoints";
import { createRuntime } from "@/lib/runtime/runtime";
import { OFFLINE_WORD_DELAY_ENV } from "@/providers";
import {
  fillTemplate,
  SAMPLE_KNOWLEDGE,
  templateBlockTypes,
  usesSampleKnowledge,
  WORKFLOW_TEMPLATES,
  type WorkflowTemplate,
} from ".";

/**
 * Every gallery template, as a person gets it (the sample knowledge base made, its id filled in),
 * run on the real runtime and database with the offline model and no key: each runs end to end.
 */

let database: TestDatabase;
let knowledge: KnowledgeService;
let endpoints: RunEndpoints;
let workspaceId: string;
let knowledgeBaseId: string;

beforeAll(async () => {
  database = await createTestDatabase();
  workspaceId = await database.createWorkspace();
  knowledge = createKnowledgeService({ db: database.prisma, envFor: async () => () => undefined });
  knowledgeBaseId = (
    await knowledge.createBase(workspaceId, { name: SAMPLE_KNOWLEDGE.name, description: SAMPLE_KNOWLEDGE.description })
  ).id;
  const files = SAMPLE_KNOWLEDGE.documents.map((document) => ({
    name: document.name,
    bytes: new TextEncoder().encode(document.text),
  }));
  await knowledge.uploadDocuments(workspaceId, knowledgeBaseId, files);
  await knowledge.drain();
  // No provider key at all; the offline model streams at once here (its pace is a setting).
  const env: Record<string, string> = { [OFFLINE_WORD_DELAY_ENV]: "0" };
  const runtime = createRuntime({
    repositories: database.repositories,
    knowledgeSearch: (workspace, request, options) => knowledge.search(workspace, request, options),
    processEnv: (name) => env[name],
  });
  endpoints = runEndpoints(() => ({ runs: runtime.runs, repositories: database.repositories }));
});

afterAll(async () => {
  await knowledge?.stop();
  await database?.close();
});

interface FinishedRun {
  status: string;
  output: Record<string, unknown> | null;
  error: unknown;
  spans: Array<{ kind: string; blockId: string; status: string; output: Record<string, unknown> | null }>;
}

const template = (id: string): WorkflowTemplate => WORKFLOW_TEMPLATES.find((entry) => entry.id === id)!;

async function startTemplate(
  entry: WorkflowTemplate,
  input: Record<string, unknown>,
  wait: boolean,
): Promise<Response> {
  const document = fillTemplate(entry, usesSampleKnowledge(entry) ? { knowledgeBaseId } : {});
  const workflow = await database.repositories.workflows.create(workspaceId, document as never);
  const response = await endpoints.start(
    new Request(`http://localhost/api/workflows/${workflow.id}/runs`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ input, wait }),
    }),
    { id: workflow.id },
    testMember(workspaceId, "editor"),
  );
  expect(response.ok, await response.clone().text()).toBe(true);
  return response;
}

async function runTemplate(entry: WorkflowTemplate, input: Record<string, unknown> = {}): Promise<FinishedRun> {
  return (await (await startTemplate(entry, input, true)).json()) as FinishedRun;
}

const ran = (run: FinishedRun) =>
  run.spans
    .filter((span) => span.kind === "block" && span.status === "succeeded")
    .map((span) => span.blockId)
    .sort();

describe("the template gallery", () => {
  it("lists the five templates of the issue, each with blocks and every model on the offline model", () => {
    expect(WORKFLOW_TEMPLATES.map((entry) => entry.name)).toEqual([
      "Support routing",
      "Support agent with tools",
      "Knowledge Q&A",
      "Loop over a list",
      "Ask and route",
    ]);
    for (const entry of WORKFLOW_TEMPLATES) {
      expect(templateBlockTypes(entry)[0]).toBe("start");
      for (const block of entry.document.blocks ?? [])
        if ("model" in (block.config ?? {})) expect(block.config?.model).toBe("offline/echo");
    }
    expect(() => fillTemplate(template("knowledge-qa"))).toThrow(/needs the sample knowledge base/);
  });

  it("speaks to the person choosing a template, not of the documents Trellis was started from", () => {
    for (const entry of WORKFLOW_TEMPLATES) {
      const shown = [entry.name, entry.summary, entry.document.name, entry.document.description ?? ""].join("\n");
      expect(shown, entry.id).not.toMatch(/\bseeds?\b|MCP-bridge/i);
    }
  });

  it("support routing: the offline router sends each message to the agent whose prompt shares its words", async () => {
    const refund = await runTemplate(template("support-routing"));
    expect(refund).toMatchObject({ status: "succeeded", output: { team: "support" } });
    expect(refund.output?.answer).toContain("Echo: My parcel arrived broken. Can I get a refund?");
    const pricing = await runTemplate(template("support-routing"), { message: "How much do your plans cost?" });
    expect(pricing).toMatchObject({ status: "succeeded", output: { team: "sales" } });
    expect(ran(pricing)).toEqual(["response", "router", "sales", "start"]);
  });

  it("knowledge Q&A: searches the sample knowledge base and answers with the passages as sources", async () => {
    const run = await runTemplate(template("knowledge-qa"));
    expect(run.status).toBe("succeeded");
    const sources = run.output?.sources as Array<{ documentName: string; content: string }>;
    expect(sources[0]).toMatchObject({ documentName: "refunds.md" });
    expect(sources[0]!.content).toContain("damaged or broken item is refunded in full");
    expect(run.output?.answer).toContain("[offline model, not a language model]");
  });

  it("support agent with tools: runs with its knowledge search and calculator tools on the sample base", async () => {
    const run = await runTemplate(template("support-agent-tools"));
    expect(run).toMatchObject({
      status: "succeeded",
      output: { answer: expect.stringContaining("Echo: What is your refund policy?"), toolCalls: 0 },
    });
  });

  it("loop over a list: one agent answer per item of the start's list", async () => {
    const run = await runTemplate(template("loop-list"));
    expect(run.status).toBe("succeeded");
    const descriptions = run.output?.descriptions as Array<{ content: string }>;
    expect(descriptions.map((entry) => entry.content.split("\n")[0])).toEqual([
      "Echo: Describe green tea (item 0 of the list).",
      "Echo: Describe espresso (item 1 of the list).",
      "Echo: Describe hot cocoa (item 2 of the list).",
    ]);
  });

  it("ask and route: the run drafts its plan and waits for the person's answer", async () => {
    const { runId } = (await (await startTemplate(template("ask-approval"), {}, false)).json()) as { runId: string };
    const deadline = Date.now() + 10_000;
    let status = "";
    while (status !== "paused" && Date.now() < deadline) {
      status = (await database.repositories.runs.get(workspaceId, runId)).status;
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    expect(status).toBe("paused");
  });
});
