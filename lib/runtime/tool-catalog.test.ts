import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { Repositories } from "@/lib/db";
import { createRuntime } from "./runtime";

// The catalog reads no storage; the runtime is composed as the app composes it.
const noStorage = {} as Repositories;
const runtimeWith = (env: Record<string, string>) =>
  createRuntime({
    repositories: noStorage,
    knowledgeSearch: async () => ({ results: [] }) as never,
    processEnv: (name) => env[name],
    guardedFetch: fetch as never,
  });

describe("the tool catalog (GET /api/tools)", () => {
  it("lists every tool type and the operator's MCP servers by name and target, never their secrets", () => {
    const servers = {
      github: {
        transport: "http",
        url: "https://mcp.example.com/github?token=url-secret",
        headers: { authorization: "Bearer header-secret" },
      },
      files: {
        transport: "stdio",
        command: "/opt/mcp/bin/files-server",
        args: ["--root", "/srv"],
        env: { FILES_KEY: "env-secret" },
      },
    };
    const catalog = runtimeWith({ TRELLIS_MCP_SERVERS: JSON.stringify(servers) }).toolCatalog("workspace-a");
    expect(catalog.tools.map((tool) => tool.type).sort()).toEqual([
      "calculator",
      "http_request",
      "knowledge_search",
      "mcp",
      "run_function",
      "web_page",
      "workflow",
    ]);
    expect(catalog.mcpServers).toEqual([
      { name: "github", transport: "http", target: "https://mcp.example.com/github" },
      { name: "files", transport: "stdio", target: "files-server" },
    ]);
    expect(JSON.stringify(catalog)).not.toMatch(/secret/);
  });

  it("lists only the MCP servers given to the workspace (a server with no `workspaces` list is everyone's)", () => {
    const servers = {
      shared: { transport: "http", url: "https://mcp.example.com/shared" },
      onlyA: { transport: "http", url: "https://mcp.example.com/a", workspaces: ["workspace-a"] },
      onlyB: { transport: "http", url: "https://mcp.example.com/b", workspaces: ["workspace-b"] },
    };
    const runtime = runtimeWith({ TRELLIS_MCP_SERVERS: JSON.stringify(servers) });
    expect(runtime.toolCatalog("workspace-a").mcpServers.map((server) => server.name)).toEqual(["shared", "onlyA"]);
    expect(runtime.toolCatalog("workspace-b").mcpServers.map((server) => server.name)).toEqual(["shared", "onlyB"]);
    expect(Object.keys(runtime.mcpServers("workspace-c"))).toEqual(["shared"]);
  });

  it("reports a broken server list instead of failing", () => {
    const catalog = runtimeWith({ TRELLIS_MCP_SERVERS: '{"x": {"transport": "stdio"}}' }).toolCatalog("workspace-a");
    expect(catalog.mcpServers).toEqual([]);
    expect(catalog.mcpError).toBe("TRELLIS_MCP_SERVERS has invalid MCP servers: x.command: is required");
  });

  it("refuses a nonsensical depth limit when the runtime is made", () => {
    expect(() => runtimeWith({ TRELLIS_MAX_WORKFLOW_DEPTH: "-1" })).toThrow(
      'TRELLIS_MAX_WORKFLOW_DEPTH must be a whole number of at least 1; got "-1"',
    );
  });

  it("offers file tools only to a workspace with a files folder, and file_write only where writes are on", () => {
    const root = mkdtempSync(join(tmpdir(), "trellis-catalog-files-"));
    try {
      mkdirSync(join(root, "workspace-a"));
      const types = (env: Record<string, string>, workspaceId: string) =>
        runtimeWith(env)
          .toolCatalog(workspaceId)
          .tools.map((tool) => tool.type)
          .filter((type) => ["file_read", "file_list", "file_search", "file_info", "file_write"].includes(type));
      expect(types({ TRELLIS_FILES_ROOT: root }, "workspace-a")).toEqual([
        "file_read",
        "file_list",
        "file_search",
        "file_info",
      ]);
      expect(types({ TRELLIS_FILES_ROOT: root, TRELLIS_FILES_WRITE: "workspace-a" }, "workspace-a")).toContain(
        "file_write",
      );
      expect(types({ TRELLIS_FILES_ROOT: root, TRELLIS_FILES_WRITE: "on" }, "workspace-b")).toEqual([]);
      expect(types({}, "workspace-a")).toEqual([]);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });

  it("refuses a bad file size limit when the runtime is made", () => {
    expect(() => runtimeWith({ TRELLIS_FILES_MAX_BYTES: "0" })).toThrow(
      'TRELLIS_FILES_MAX_BYTES must be a whole number of bytes from 1 to 104857600, not "0"',
    );
  });
});
