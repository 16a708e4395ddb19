import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { createFixtureServer } from "./fixture-mcp-server.mjs";

export const FIXTURE_SERVER_SCRIPT = path.join(path.dirname(fileURLToPath(import.meta.url)), "fixture-mcp-server.mjs");

/** The fixture over Streamable HTTP on an ephemeral port (stateless: a fresh server per request). */
export async function startHttpMcpFixture(): Promise<{
  url: string;
  requests: Array<{ method: string; authorization?: string }>;
  close(): Promise<void>;
}> {
  const requests: Array<{ method: string; authorization?: string }> = [];
  const httpServer = createServer((request, response) => {
    requests.push({ method: request.method ?? "", authorization: request.headers.authorization });
    const server = createFixtureServer();
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined });
    response.on("close", () => {
      void transport.close();
      void server.close();
    });
    server
      .connect(transport)
      .then(() => transport.handleRequest(request, response))
      .catch(() => {
        if (!response.headersSent) response.writeHead(500).end();
      });
  });
  await new Promise<void>((resolve) => httpServer.listen(0, "127.0.0.1", resolve));
  const { port } = httpServer.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        httpServer.closeAllConnections();
        httpServer.close(() => resolve());
      }),
  };
}

/** Whether a process is still alive (signal 0 only checks). */
export function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

export async function waitUntil(check: () => boolean, timeoutMs = 3000): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (check()) return true;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  return check();
}
