import { startTestLlmServer, type TestLlmServer } from "../providers/testing/test-llm-server";

/**
 * The port of the test LLM server a browser test starts for itself, to script a model's answers
 * and read what it was sent. The e2e server's OPENAI_COMPATIBLE_BASE_URL points at it
 * (playwright.config.ts): a provider's server is the operator's to set, never a workspace's, so a
 * test cannot point its workspace at a server of its own. Tests run one at a time (workers: 1).
 */
export const SCRIPTED_LLM_PORT = Number(process.env.E2E_SCRIPTED_LLM_PORT ?? 4012);

/** The scripted server, answering `openai-compatible/<model>` calls of the e2e server. */
export function startScriptedLlm(): Promise<TestLlmServer> {
  return startTestLlmServer({ port: SCRIPTED_LLM_PORT });
}
