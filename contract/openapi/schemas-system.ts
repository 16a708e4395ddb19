import { z } from "zod";

/** The schemas of the endpoints about the server itself: health, models, tools, names for `{{` completion, gathered for the catalog; each is declared with its type in the contract file it comes from. */

export { healthDetailsSchema, healthSchema, readinessSchema } from "../system";
export { modelListSchema } from "../models";
export { mcpServerToolsSchema, toolCatalogSchema } from "../tools";
export { envNamesSchema } from "../secrets";

/** The answer of GET /api/openapi.json, described loosely: its own schema is the OpenAPI 3.1 specification's. */
export const openApiDocumentSchema = z.looseObject({
  openapi: z.string(),
  info: z.looseObject({}),
  paths: z.looseObject({}),
});
