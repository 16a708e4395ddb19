import { handleErrors } from "@/lib/http/errors";
import { getRuntime } from "@/lib/runtime/runtime";

export const dynamic = "force-dynamic";

/**
 * The inspector's tool picker: `{ tools: [{ type, label, description }], mcpServers: [{ name,
 * transport, target }], mcpError? }`. Servers are shown by name and target only: never headers,
 * env values or URL queries. A broken server list is reported in `mcpError`, not as a failure.
 */
export const GET = handleErrors(async () => Response.json(getRuntime().toolCatalog()));
