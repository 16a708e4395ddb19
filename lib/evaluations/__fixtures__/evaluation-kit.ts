import { workflowDocumentSchema, type WorkflowDocumentInput } from "@/contract";
import { createDatasetService, datasetEndpoints, DatasetRepository, type DatasetEndpoints } from "@/lib/datasets";
import { createTestDatabase, type TestDatabase } from "@/lib/db/test-database";
import { createRuntime, type Runtime } from "@/lib/runtime/runtime";
import { runEndpoints, type RunEndpoints } from "@/lib/runs/run-endpoints";
import { createGuardedFetch } from "@/net";
import { startTestLlmServer, type TestLlmServer } from "@/providers/testing/test-llm-server";
import { testServerEnv } from "@/providers/testing/test-model-registry";
import { evaluationEndpoints, type EvaluationEndpoints } from "../evaluation-endpoints";
import { evaluationServices } from "../evaluation-services";

/**
 * The model answers: an echo of the question, except that a system prompt saying STRICT makes it
 * refuse questions tagged `#hard`. So a prompt change to STRICT regresses exactly the hard cases.
 */
export const STRICT = "STRICT";
/** What the judge answers. */
export const JUDGE_SCORE = 0.8;
export const JUDGE_REASON = "It answers the question asked, though tersely.";

export interface EvaluationKit {
  database: TestDatabase;
  llm: TestLlmServer;
  runtime: Runtime;
  datasets: DatasetEndpoints;
  evaluations: EvaluationEndpoints;
  runs: RunEndpoints;
  services: ReturnType<typeof evaluationServices>;
  close(): Promise<void>;
}

/** A real database, the real runtime, and the test LLM server answering as described above. */
export async function startEvaluationKit(
  options: { allowHost?: string; env?: Record<string, string> } = {},
): Promise<EvaluationKit> {
  const database = await createTestDatabase();
  const llm = await startTestLlmServer({
    defaultResponder: (request) => {
      // A judge (the Evaluator block's structured output, with its reasons) scores every answer 0.8.
      if (request.jsonSchema !== undefined)
        return { kind: "json", value: { reasoning: JUDGE_REASON, score: JUDGE_SCORE } };
      const question = request.userTexts.at(-1) ?? "";
      if (request.systemText.includes(STRICT) && question.includes("#hard"))
        return { kind: "text", text: "I cannot say." };
      return { kind: "text", text: `Echo: ${question}` };
    },
  });
  // A variable set to "" is left out: a key the workspace does not have.
  const env = Object.fromEntries(
    Object.entries({ ...testServerEnv(llm), ...options.env }).filter(([, value]) => value !== ""),
  );
  const runtime = createRuntime({
    repositories: database.repositories,
    processEnv: (name) => env[name],
    knowledgeSearch: async () => {
      throw new Error("knowledge search is not part of these tests");
    },
    ...(options.allowHost ? { guardedFetch: createGuardedFetch({ allowHosts: options.allowHost }) } : {}),
  });
  const services = evaluationServices(runtime, database.prisma);
  return {
    database,
    llm,
    runtime,
    services,
    datasets: datasetEndpoints(() =>
      createDatasetService(new DatasetRepository(database.prisma), database.repositories),
    ),
    evaluations: evaluationEndpoints(() => services),
    runs: runEndpoints(() => ({ runs: runtime.runs, repositories: database.repositories })),
    async close() {
      await llm.close();
      await database.close();
    },
  };
}

const at = (x: number) => ({ position: { x, y: 0 }, parentId: null, enabled: true });

/** start (question) -> agent (gpt-4o-mini on the test server, `system`) -> response `{ answer }`. */
export function answerWorkflow(system = "Answer the question."): WorkflowDocumentInput {
  return {
    name: "Answers",
    blocks: [
      {
        id: "start",
        type: "start",
        name: "Start",
        ...at(0),
        config: { inputs: [{ name: "question", type: "string" }] },
      },
      {
        id: "agent",
        type: "agent",
        name: "Agent",
        ...at(200),
        config: { model: "openai/gpt-4o-mini", systemPrompt: system, userPrompt: "<start.question>", maxTokens: 100 },
      },
      { id: "response", type: "response", name: "Response", ...at(400), config: { data: "<Agent.content>" } },
    ],
    edges: [
      { id: "e1", source: "start", target: "agent" },
      { id: "e2", source: "agent", target: "response" },
    ],
  };
}

export async function createWorkflow(kit: EvaluationKit, workspaceId: string, document: WorkflowDocumentInput) {
  return kit.database.repositories.workflows.create(workspaceId, workflowDocumentSchema.parse(document));
}

/** A JSON request to an endpoint, as the dispatcher hands it over. */
export function json(method: string, path: string, body?: unknown): Request {
  return new Request(`http://localhost${path}`, {
    method,
    headers: { "content-type": "application/json" },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
}

/** A body of another media type (a CSV or JSON-lines import). */
export function text(path: string, contentType: string, body: string): Request {
  return new Request(`http://localhost${path}`, { method: "POST", headers: { "content-type": contentType }, body });
}

/** An answer read without its type: its error body, when it is one, and whatever else it holds. */
export interface AnyAnswer {
  error: { code: string; message: string; details: { path: string; message: string }[] };
  [field: string]: unknown;
}

export async function read<T = AnyAnswer>(response: Response): Promise<{ status: number; body: T }> {
  const raw = await response.text();
  return { status: response.status, body: (raw ? JSON.parse(raw) : null) as T };
}
