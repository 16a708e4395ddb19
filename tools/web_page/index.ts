export { createWebPageToolProvider, WEB_PAGE_TOOL_TYPE, type WebPageToolDeps } from "./web-page-tool";
export { readWebPage, DEFAULT_MAX_PAGE_BYTES, type WebPage, type ReadWebPageOptions } from "./read-web-page";
export { extractReadableText, type ReadablePage } from "./readable-text";
