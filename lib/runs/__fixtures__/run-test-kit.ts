import { readFileSync } from "node:fs";
import path from "node:path";
import { createTestDatabase, type TestDatabase } from "@/lib/db/test-database";
import { createRuntime, type Runtime } from "@/lib/runtime/runtime";
import type { GuardedFetch } from "@/net";
import { startTestLlmServer, type TestLlmServer } from "@/providers/testing/test-llm-server";
import { testServerEnv } from "@/providers/testing/test-model-registry";
import { runEndpoints, type RunEndpoints } from "../run-endpoints";

export interface RunTestKit {
  database: TestDatabase;
  server: TestLlmServer;
  runtime: Runtime;
  endpoints: RunEndpoints;
  close(): Promise<void>;
}

export interface RunTestKitOptions {
  /** Process variables besides the ones pointing every provider at the test server (set to undefined to drop one). */
  processEnv?: Record<string, string | undefined>;
  /** The outbound fetch of API blocks and tools (default: the guard, refusing local addresses). */
  guardedFetch?: GuardedFetch;
}

/** A real database, the real runtime and engine, and the test LLM server as every provider. */
export async function startRunTestKit(options: RunTestKitOptions = {}): Promise<RunTestKit> {
  const database = await createTestDatabase();
  const server = await startTestLlmServer();
  const env: Record<string, string | undefined> = { ...testServerEnv(server), ...options.processEnv };
  const runtime = createRuntime({
    repositories: database.repositories,
    processEnv: (name) => (Object.hasOwn(env, name) ? env[name] : undefined),
    guardedFetch: options.guardedFetch,
    knowledgeSearch: async () => {
      throw new Error("knowledge search is not part of these tests");
    },
  });
  const endpoints = runEndpoints(() => ({ runs: runtime.runs, repositories: database.repositories }));
  return {
    database,
    server,
    runtime,
    endpoints,
    async close() {
      await server.close();
      await database.close();
    },
  };
}

/** The seeds' support-routing example, with every model set to `model`. */
export function supportRoutingDocument(model: string) {
  const file = path.join(process.cwd(), "examples", "support-routing.json");
  const document = JSON.parse(readFileSync(file, "utf8")) as {
    blocks: Array<{ id: string; config: Record<string, unknown>; type: string }>;
  };
  for (const block of document.blocks) if ("model" in block.config) block.config.model = model;
  // The example's message has a default so its template runs at once; these tests need it required.
  for (const block of document.blocks)
    if (block.type === "start")
      block.config.inputs = (block.config.inputs as Array<Record<string, unknown>>).map(
        ({ default: _default, ...input }) => input,
      );
  return document;
}

export interface ParsedSse {
  id: number;
  event: string;
  data: Record<string, unknown>;
}

export function parseSse(text: string): ParsedSse[] {
  return text
    .split("\n\n")
    .filter((frame) => frame.startsWith("id:"))
    .map((frame) => {
      const lines = Object.fromEntries(
        frame.split("\n").map((line) => [line.slice(0, line.indexOf(":")), line.slice(line.indexOf(":") + 2)]),
      );
      return {
        id: Number(lines.id),
        event: lines.event ?? "",
        data: JSON.parse(lines.data ?? "{}") as Record<string, unknown>,
      };
    });
}
