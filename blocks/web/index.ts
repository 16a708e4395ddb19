export { createWebHandler, type WebHandlerDeps } from "./handler";
