import { describe, expect, it } from "vitest";
import { createMCPClient } from "@ai-sdk/mcp";
import { BoundedStdioTransport } from "./bounded-stdio-transport";

/** A "server" that writes 64 MB without a newline, as a broken or hostile one might. */
const ENDLESS_LINE = `const chunk = "x".repeat(1 << 20); let left = 64; const write = () => { while (left > 0 && process.stdout.write(chunk)) left--; if (left > 0) process.stdout.once("drain", write); }; write(); setInterval(() => {}, 1000);`;

describe("BoundedStdioTransport", () => {
  it("stops a server that sends a line past the limit, and the connection fails naming the limit", async () => {
    const errors: string[] = [];
    const transport = new BoundedStdioTransport(
      { command: process.execPath, args: ["-e", ENDLESS_LINE] },
      4 * 1024 * 1024,
    );
    const closed = new Promise<void>((resolve) => {
      const client = createMCPClient({
        transport,
        clientName: "trellis-test",
        onUncaughtError: (error) => errors.push(String(error)),
      });
      client.then(
        (connected) => {
          void connected.close();
          resolve();
        },
        (error: unknown) => {
          errors.push(String(error));
          resolve();
        },
      );
    });
    let received = 0;
    const start = transport.start.bind(transport);
    transport.start = async () => {
      await start();
      (transport as unknown as { process: import("node:child_process").ChildProcess }).process.stdout!.on(
        "data",
        (chunk: Buffer) => (received += chunk.length),
      );
    };
    await closed;
    expect(errors.join("\n")).toContain(
      "The MCP server sent a line longer than 4194304 bytes without ending it; it was stopped",
    );
    // Stopped at the limit: the 64 MB the server meant to send were not all read.
    expect(received).toBeLessThan(8 * 1024 * 1024);
  });
});

describe("connectMcpServer over stdio", () => {
  it("fails with the transport's reason when a server floods one line", async () => {
    const { connectMcpServer } = await import("./mcp-tool-provider");
    const flooding = connectMcpServer(
      { transport: "stdio", command: process.execPath, args: ["-e", ENDLESS_LINE] },
      { timeoutMs: 10_000 },
    );
    await expect(flooding).rejects.toThrow(/line longer than \d+ bytes without ending it/);
  });
});
