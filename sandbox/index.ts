export { runInSandbox, DEFAULT_SANDBOX_LIMITS } from "./run-in-sandbox";
export type { SandboxLimits, SandboxOutcome, SandboxRequest, SandboxServiceHandler } from "./run-in-sandbox";
