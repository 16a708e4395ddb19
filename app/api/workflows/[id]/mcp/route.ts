import { appMcpPublicationEndpoints } from "@/lib/mcp/app-mcp-endpoints";
import { route } from "@/lib/http/route";

export const dynamic = "force-dynamic";

export const GET = route(appMcpPublicationEndpoints.get);
export const POST = route(appMcpPublicationEndpoints.save);
