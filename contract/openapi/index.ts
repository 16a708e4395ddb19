/**
 * The REST API as an OpenAPI 3.1 document (GET /api/openapi.json, the /api-docs page): a catalog
 * of the operations over the contract's zod schemas, and the generator. Client-safe like the rest
 * of contract/, but apart from its index: only the route and the docs page need it.
 */
export { API_OPERATIONS } from "./catalog";
export { buildOpenApiDocument, type JsonSchema, type OpenApiDocument, type OpenApiOperationObject } from "./generate";
export { errorStatusesOf, OPERATION_TAGS, type ApiOperation, type ErrorStatus, type HttpMethod, type OperationAccess, type OperationTag } from "./operation";
