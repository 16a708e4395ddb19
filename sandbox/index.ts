export { runInSandbox, DEFAULT_SANDBOX_LIMITS, markTruncated } from "./run-in-sandbox";
export type {
  SandboxLanguage,
  SandboxLimits,
  SandboxOutcome,
  SandboxRequest,
  SandboxServiceHandler,
} from "./run-in-sandbox";
export { SandboxGate, processSandboxGate, sandboxSettings } from "./sandbox-gate";
export type { SandboxGateStats, SandboxSlot } from "./sandbox-gate";
export { capSandboxLimits, sandboxSettingsFrom } from "./sandbox-settings";
export type { CappedLimits, SandboxSettings } from "./sandbox-settings";
export { SANDBOX_OVERHEAD_MB, sandboxFootprintMb } from "./sandbox-footprint";
