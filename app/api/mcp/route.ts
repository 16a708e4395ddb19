import { appMcpServerEndpoints } from "@/lib/mcp/app-mcp-endpoints";
import { route } from "@/lib/http/route";

export const dynamic = "force-dynamic";

export const POST = route(appMcpServerEndpoints.serve);
