import { route } from "@/lib/http/route";
import { openApiEndpoint } from "@/lib/system/openapi-document";

export const dynamic = "force-dynamic";

export const GET = route(openApiEndpoint);
