import { parseArgs } from "node:util";
import { startTestLlmServer } from "./test-llm-server";

/**
 * Runs the test LLM server on its own, for browser tests:
 *   tsx providers/testing/serve.ts --port 4010 [--delay 40]
 * then OPENAI_BASE_URL=http://127.0.0.1:4010/v1 (ANTHROPIC_BASE_URL the same,
 * GOOGLE_GENERATIVE_AI_BASE_URL=http://127.0.0.1:4010/v1beta) and any non-empty API key.
 */
const { values } = parseArgs({
  options: {
    port: { type: "string", default: "4010" },
    host: { type: "string", default: "127.0.0.1" },
    delay: { type: "string", default: "40" },
  },
});

const server = await startTestLlmServer({
  port: Number(values.port),
  host: values.host,
  defaultDelayMs: Number(values.delay),
});
console.log(
  `test LLM server listening on ${server.url} (OpenAI/Anthropic base ${server.openaiBaseUrl}, Google base ${server.googleBaseUrl})`,
);

for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.on(signal, () => {
    void server.close().then(() => process.exit(0));
  });
}
