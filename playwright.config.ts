import path from "node:path";
import { defineConfig } from "@playwright/test";
import { E2E_OWNER, E2E_STORAGE_STATE } from "./e2e/owner";

/**
 * Browser tests run the real app (built with `next build` in CI, `next dev` otherwise) on its
 * own port against a fresh embedded database, in the system Chromium.
 */
const port = Number(process.env.E2E_PORT ?? 3100);
const dataDir = process.env.E2E_DATA_DIR ?? `/tmp/trellis-e2e-${Date.now()}`;
const useBuild = process.env.E2E_USE_BUILD === "1";
/** The test LLM server (providers/testing/serve.ts) stands in for OpenAI in the run tests. */
const llmPort = Number(process.env.E2E_LLM_PORT ?? 4011);
// The server tests start themselves to script answers (e2e/scripted-llm.ts): the operator's OpenAI-compatible server.
const scriptedLlmPort = Number(process.env.E2E_SCRIPTED_LLM_PORT ?? 4012);
/**
 * A second app with no account yet, for the first-run test (e2e/first-run.spec.ts). Against the
 * build only: two `next dev` servers cannot share one project folder.
 */
const firstRunPort = port + 1;
const serverEnv = {
  HOST: "127.0.0.1",
  NEXT_TELEMETRY_DISABLED: "1",
  // Browser tests use the embedded database unless E2E_DATABASE_URL is given.
  DATABASE_URL: process.env.E2E_DATABASE_URL ?? "",
};

export default defineConfig({
  testDir: "./e2e",
  // Signs the owner in once; every test starts signed in (e2e/auth.spec.ts starts signed out).
  globalSetup: "./e2e/global-setup.ts",
  projects: [
    { name: "app", testMatch: "**/*.spec.ts", testIgnore: "**/first-run.spec.ts" },
    ...(useBuild
      ? [
          {
            name: "first-run",
            testMatch: "**/first-run.spec.ts",
            use: { baseURL: `http://127.0.0.1:${firstRunPort}`, storageState: { cookies: [], origins: [] } },
          },
        ]
      : []),
  ],
  timeout: 60_000,
  expect: { timeout: 10_000 },
  fullyParallel: false,
  workers: 1,
  retries: 0,
  reporter: [["list"]],
  use: {
    storageState: E2E_STORAGE_STATE,
    baseURL: `http://127.0.0.1:${port}`,
    trace: "retain-on-failure",
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
      args: [
        "--no-sandbox",
        "--disable-gpu",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--no-first-run",
        "--disable-quic",
      ],
    },
  },
  webServer: [
    {
      // The README's own commands (migrations, then next on HOST:PORT), on loopback like theirs.
      command: useBuild ? "npm run --silent start" : "npm run --silent dev",
      url: `http://127.0.0.1:${port}/api/health`,
      timeout: 180_000,
      reuseExistingServer: false,
      stdout: "pipe",
      stderr: "pipe",
      env: {
        ...(process.env as Record<string, string>),
        ...serverEnv,
        DATA_DIR: dataDir,
        TRELLIS_ADMIN_EMAIL: E2E_OWNER.email,
        TRELLIS_ADMIN_PASSWORD: E2E_OWNER.password,
        PORT: String(port),
        OPENAI_BASE_URL: `http://127.0.0.1:${llmPort}/v1`,
        OPENAI_API_KEY: "sk-test-e2e",
        OPENAI_COMPATIBLE_BASE_URL: `http://127.0.0.1:${scriptedLlmPort}/v1`,
        // The test LLM server is the one loopback address agents' HTTP tools may call (e2e/tool-picker.spec.ts).
        OUTBOUND_ALLOW_HOSTS: `127.0.0.1:${llmPort}`,
        // MCP servers for the tool picker (e2e/tool-picker.spec.ts): one that answers, one that is down.
        TRELLIS_MCP_SERVERS: JSON.stringify({
          notes: {
            transport: "stdio",
            command: process.execPath,
            args: [path.join(process.cwd(), "tools/mcp/__fixtures__/fixture-mcp-server.mjs")],
          },
          down: { transport: "http", url: "http://127.0.0.1:9/mcp" },
        }),
      },
    },
    ...(useBuild
      ? [
          {
            // The README's first run: no account, no TRELLIS_ADMIN_*; the first visitor makes the owner.
            // Its own embedded database (a PostgreSQL one would already hold the other app's owner).
            command: "npm run --silent start",
            url: `http://127.0.0.1:${firstRunPort}/api/health`,
            timeout: 180_000,
            reuseExistingServer: false,
            stdout: "pipe" as const,
            stderr: "pipe" as const,
            env: {
              ...(Object.fromEntries(
                Object.entries(process.env).filter(([name]) => !name.startsWith("TRELLIS_ADMIN_")),
              ) as Record<string, string>),
              ...serverEnv,
              DATABASE_URL: "",
              DATA_DIR: `${dataDir}-first-run`,
              PORT: String(firstRunPort),
            },
          },
        ]
      : []),
    {
      // Default answers: routing prompts get the route the message names, anything else an echo
      // of the message streamed word by word, 40 ms apart (long messages make slow runs).
      command: `npx tsx providers/testing/serve.ts --port ${llmPort} --delay 40`,
      url: `http://127.0.0.1:${llmPort}/health`,
      timeout: 60_000,
      reuseExistingServer: false,
      stdout: "pipe",
      stderr: "pipe",
    },
  ],
});
