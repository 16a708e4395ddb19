import "server-only";
import { API_OPERATIONS, buildOpenApiDocument, type OpenApiDocument } from "@/contract/openapi";
import { endpoint } from "@/lib/http/endpoint";
import packageJson from "@/package.json";

let cached: OpenApiDocument | undefined;

/**
 * The REST API's OpenAPI document, built once per process on first use: it depends only on the
 * code (the catalog and the contract's schemas), never on a request or on stored data.
 */
export function openApiDocument(): OpenApiDocument {
  cached ??= buildOpenApiDocument(API_OPERATIONS, { version: packageJson.version });
  return cached;
}

/** GET /api/openapi.json: public like /api/health, since it describes the API and nothing stored. */
export const appOpenApiEndpoints = {
  document: endpoint("openApiDocument", async () => Response.json(openApiDocument())),
};
