/**
 * The public contract (docs/CONTRACT.md) as code: the workflow document, the API's request and
 * response shapes, the run events, statuses and errors, and the one API client. Client-safe:
 * it imports zod and nothing else, and every other layer may import it.
 */
export * from "./workflow-document";
export * from "./test-samples";
export * from "./json-limits";
export * from "./reserved-names";
export * from "./usage";
export * from "./budgets";
export * from "./figures";
export * from "./errors";
export * from "./run-events";
export * from "./runs";
export * from "./approvals";
export * from "./asks";
export * from "./deployments";
export * from "./schedules";
export * from "./webhooks";
export * from "./workflows";
export * from "./knowledge";
export * from "./models";
export * from "./prices";
export * from "./providers";
export * from "./model-options";
export * from "./tools";
export * from "./tool-entry";
export * from "./secrets";
export * from "./api-keys";
export * from "./workspaces";
export * from "./pagination";
export * from "./timestamp";
export * from "./api-client";
export * from "./auth";
export * from "./system";
export * from "./chat";
export * from "./mcp-publication";
export * from "./workflow-import";
export * from "./estimates";
export * from "./run-diff";
export * from "./audit";
export * from "./member-sessions";
export * from "./sso";
export * from "./datasets";
export * from "./scorers";
export * from "./evaluations";
export * from "./copilot";
