export { createApiHandler, apiTraceInput, type ApiHandlerDeps } from "./handler";
