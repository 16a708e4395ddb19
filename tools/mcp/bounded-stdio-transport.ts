import type { ChildProcess } from "node:child_process";
import { StdioMCPTransport } from "@ai-sdk/mcp/mcp-stdio";

/** The longest message line a stdio MCP server may send: JSON-RPC messages are one line each. */
export const MAX_STDIO_LINE_BYTES = 16 * 1024 * 1024;

/**
 * The AI SDK's stdio transport, with its read buffer bounded: it keeps a server's output until a
 * newline comes, so a server that writes without one (a bug, or hostile) would grow this process
 * without limit. Past MAX_STDIO_LINE_BYTES in one line the server is stopped and the connection
 * fails, naming the limit.
 */
export class BoundedStdioTransport extends StdioMCPTransport {
  constructor(
    server: ConstructorParameters<typeof StdioMCPTransport>[0],
    private readonly maxLineBytes = MAX_STDIO_LINE_BYTES,
  ) {
    super(server);
  }

  override async start(): Promise<void> {
    await super.start();
    // The SDK keeps its child process in a field it does not type as public; a missing one (an SDK
    // change) fails the transport's tests rather than leaving the buffer unbounded unnoticed.
    const child = (this as unknown as { process?: ChildProcess }).process;
    if (!child?.stdout) throw new Error("The stdio MCP transport has no child process to watch: the AI SDK changed");
    let lineBytes = 0;
    child.stdout.on("data", (chunk: Buffer) => {
      const newline = chunk.lastIndexOf(0x0a);
      lineBytes = newline === -1 ? lineBytes + chunk.length : chunk.length - newline - 1;
      if (lineBytes <= this.maxLineBytes) return;
      lineBytes = 0;
      this.onerror?.(
        new Error(
          `The MCP server sent a line longer than ${this.maxLineBytes} bytes without ending it; it was stopped`,
        ),
      );
      this.close().catch((error: unknown) => this.onerror?.(error instanceof Error ? error : new Error(String(error))));
    });
  }
}
