/**
 * The REST API declared once: a catalog of the operations (method, path, access and role, request
 * and answer schemas, and their description) over the contract's zod schemas, and the OpenAPI 3.1
 * generator (GET /api/openapi.json, the /api-docs page). The server dispatches by the catalog and
 * the API client calls through it. Client-safe like the rest of contract/.
 */
export { API_OPERATIONS, operationById, type DeclaredOperation, type OperationById, type OperationId } from "./catalog";
export { buildOpenApiDocument, type JsonSchema, type OpenApiDocument, type OpenApiOperationObject } from "./generate";
export { fillPath } from "./operation-path";
export {
  errorStatusesOf,
  OPERATION_TAGS,
  type ApiOperation,
  type ErrorStatus,
  type HttpMethod,
  type OperationAccess,
  type OperationAnswer,
  type OperationTag,
  type PathParams,
} from "./operation";
