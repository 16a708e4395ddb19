import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { describeMcpServer, loadMcpServers, parseMcpServers } from "./mcp-servers";

const env = (values: Record<string, string>) => (name: string) => values[name];

describe("the operator's MCP servers", () => {
  it("reads TRELLIS_MCP_SERVERS before DATA_DIR/mcp-servers.json, and neither means none", () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), "trellis-mcp-config-"));
    expect(loadMcpServers({ env: env({}), dataDir })).toEqual({});
    writeFileSync(
      path.join(dataDir, "mcp-servers.json"),
      JSON.stringify({ files: { transport: "stdio", command: "mcp-files", args: ["/srv"] } }),
    );
    expect(loadMcpServers({ env: env({}), dataDir })).toEqual({
      files: { transport: "stdio", command: "mcp-files", args: ["/srv"] },
    });
    const fromEnv = loadMcpServers({
      env: env({
        TRELLIS_MCP_SERVERS: JSON.stringify({ docs: { transport: "http", url: "https://mcp.example.com/mcp" } }),
      }),
      dataDir,
    });
    expect(fromEnv).toEqual({ docs: { transport: "http", url: "https://mcp.example.com/mcp" } });
  });

  it("names the source and path of every problem, never a value", () => {
    const text = JSON.stringify({
      docs: { transport: "http", url: "ftp://host/x", headers: { authorization: "Bearer s3cret-token" } },
      "bad name": { transport: "stdio", command: "x" },
      tool: { transport: "stdio" },
    });
    let message = "";
    try {
      parseMcpServers(text, "TRELLIS_MCP_SERVERS");
    } catch (error) {
      message = (error as Error).message;
    }
    expect(message).toMatch(/^TRELLIS_MCP_SERVERS has invalid MCP servers: /);
    expect(message).toContain("docs.url: must be an http(s) URL");
    expect(message).toContain("server names use letters, digits, _ and -");
    expect(message).toContain("tool.command: is required");
    expect(message).not.toContain("s3cret-token");
    expect(() => parseMcpServers("{not json", "mcp-servers.json")).toThrow(/^mcp-servers.json is not valid JSON/);
    expect(() => parseMcpServers(JSON.stringify({ x: { transport: "ws", url: "http://a" } }), "env")).toThrow(
      /x.transport: must be "http", "sse" or "stdio"/,
    );
  });

  it("describes a server for the inspector without headers, env or URL query", () => {
    expect(
      describeMcpServer("docs", {
        transport: "http",
        url: "https://user:pw@mcp.example.com/mcp?token=abc",
        headers: { authorization: "Bearer x" },
      }),
    ).toEqual({
      name: "docs",
      transport: "http",
      target: "https://mcp.example.com/mcp",
    });
    expect(
      describeMcpServer("files", {
        transport: "stdio",
        command: "/usr/local/bin/mcp-files",
        args: ["--token", "abc"],
        env: { KEY: "v" },
      }),
    ).toEqual({
      name: "files",
      transport: "stdio",
      target: "mcp-files",
    });
  });
});
