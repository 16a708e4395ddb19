export { createWebHandler, type WebHandlerDeps } from "./handler";
export { extractReadableText, type ReadablePage } from "./readable-text";
