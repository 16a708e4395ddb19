import { handleErrors, RequestError } from "@/lib/http/errors";
import { getRuntime } from "@/lib/runtime/runtime";
import { listMcpServerTools } from "@/tools/mcp";

export const dynamic = "force-dynamic";

/** GET /api/tools/mcp/:server: `{ server, tools: [{ name, description }] }`, asked of the server now. */
export const GET = handleErrors(async (request: Request, context: { params: Promise<{ server: string }> }) => {
  const { server } = await context.params;
  const servers = getRuntime().mcpServers();
  const config = Object.hasOwn(servers, server) ? servers[server] : undefined;
  if (!config) throw new RequestError(404, "not_found", `MCP server "${server}" is not configured (configured: ${Object.keys(servers).join(", ") || "none"}).`);
  try {
    return Response.json({ server, tools: await listMcpServerTools(config, { signal: request.signal }) });
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new RequestError(502, "mcp_unavailable", `MCP server "${server}" did not answer: ${config.transport === "stdio" ? reason : reason.split(config.url).join("(its URL)")}`);
  }
});
