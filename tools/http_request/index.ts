export { createHttpRequestToolProvider, HTTP_REQUEST_TOOL_TYPE, type HttpRequestToolDeps } from "./http-request-tool";
