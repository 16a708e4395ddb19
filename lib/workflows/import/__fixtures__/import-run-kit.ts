import { readFileSync } from "node:fs";
import path from "node:path";
import type { ImportedWorkflow } from "@/contract";
import type { Member } from "@/lib/auth";
import { testMember } from "@/lib/http/test-members";
import { startRunTestKit, type RunTestKit, type RunTestKitOptions } from "@/lib/runs/__fixtures__/run-test-kit";
import { createWorkflowService } from "../../service";
import { importEndpoint } from "../import-endpoint";
import { auditRequestsTo } from "@/lib/audit";

/** A seed example file of this folder, parsed. */
export function fixture(name: string): Record<string, unknown> {
  return JSON.parse(
    readFileSync(path.join(process.cwd(), "lib/workflows/import/__fixtures__", name), "utf8"),
  ) as Record<string, unknown>;
}

export interface ImportRunKit {
  kit: RunTestKit;
  member: Member;
  /** POST /api/workflows/import through the real endpoint and database. */
  post(body: unknown, as?: Member): Promise<Response>;
  /** Imports a file (201 expected) with every model played by the test LLM server. */
  importFile(file: unknown, extra?: Record<string, unknown>): Promise<ImportedWorkflow>;
  /** Starts a run of a workflow, waits for it to end and answers it with its spans. */
  run(
    workflowId: string,
    input: Record<string, unknown>,
  ): ReturnType<RunTestKit["database"]["repositories"]["runs"]["getWithSpans"]>;
  close(): Promise<void>;
}

/** The test LLM server's OpenAI wire, which the kit points every provider at. */
export const TEST_MODEL = "openai/gpt-4o-mini";

export async function startImportRunKit(
  options: RunTestKitOptions & { mcpServers?: string[] } = {},
): Promise<ImportRunKit> {
  const kit = await startRunTestKit(options);
  const member = testMember(await kit.database.createWorkspace());
  const endpoint = importEndpoint(
    () => createWorkflowService(kit.database.repositories, () => new Set(options.mcpServers ?? [])),
    () => new Set(options.mcpServers ?? []),
    auditRequestsTo(() => kit.database.prisma),
  );
  // With its Content-Length, as a browser or curl sends it: the endpoint decides by it whether a file is small enough to convert inline.
  const post = (body: unknown, as: Member = member) => {
    const text = JSON.stringify(body);
    const headers = { "content-type": "application/json", "content-length": String(Buffer.byteLength(text)) };
    return endpoint(
      new Request("http://localhost/api/workflows/import", { method: "POST", headers, body: text }),
      {},
      as,
    );
  };
  return {
    kit,
    member,
    post,
    async importFile(file, extra = {}) {
      const response = await post({ file, model: TEST_MODEL, ...extra });
      const body = (await response.json()) as ImportedWorkflow;
      if (response.status !== 201) throw new Error(`import answered ${response.status}: ${JSON.stringify(body)}`);
      return body;
    },
    async run(workflowId, input) {
      const live = await kit.runtime.runs.start(member.workspace.id, workflowId, input);
      await live.done;
      return kit.database.repositories.runs.getWithSpans(member.workspace.id, live.runId);
    },
    close: () => kit.close(),
  };
}
