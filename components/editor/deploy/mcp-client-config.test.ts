import { describe, expect, it } from "vitest";
import { API_KEY_PLACEHOLDER, mcpServersConfig, mcpTypeScriptExample } from "./mcp-client-config";

describe("MCP client snippets", () => {
  it("configure a Streamable HTTP server with the endpoint and a key placeholder", () => {
    expect(JSON.parse(mcpServersConfig("https://trellis.example.com/api/mcp"))).toEqual({
      mcpServers: {
        trellis: {
          type: "http",
          url: "https://trellis.example.com/api/mcp",
          headers: { Authorization: `Bearer ${API_KEY_PLACEHOLDER}` },
        },
      },
    });
  });

  it("call the tool by name with example arguments, reading the key from the environment", () => {
    const example = mcpTypeScriptExample("http://127.0.0.1:3000/api/mcp", "summarise_ticket", { ticket: "text" });
    expect(example).toContain('new URL("http://127.0.0.1:3000/api/mcp")');
    expect(example).toContain('client.callTool({ name: "summarise_ticket", arguments: {"ticket":"text"} })');
    expect(example).toContain("process.env.TRELLIS_API_KEY");
  });
});
