import { route } from "@/lib/http/route";
import { appOpenApiEndpoints } from "@/lib/system/openapi-document";

export const dynamic = "force-dynamic";

export const GET = route(appOpenApiEndpoints.document);
