import "server-only";
import type { SecretRedactor } from "@/executor";
import { processLogger, type Logger } from "./logger";

type Level = "debug" | "info" | "warn" | "error";

/** What a failure is logged as: its kind, message and stack, each masked. */
function errorFields(error: unknown, mask: (text: string) => string): Record<string, string> {
  if (error instanceof Error)
    return { type: error.name, message: mask(error.message), ...(error.stack ? { stack: mask(error.stack) } : {}) };
  return { message: mask(String(error)) };
}

/**
 * Lines about one thing (a run, a schedule) with its ids, masked by a redactor of its own as well
 * as the process's: a run's lines mask the workspace's secrets the run could show.
 */
export interface MaskedLog {
  debug(message: string, error?: unknown): void;
  info(message: string, error?: unknown): void;
  warn(message: string, error?: unknown): void;
  error(message: string, error?: unknown): void;
}

export function maskedLog(bindings: Record<string, string>, redactor?: SecretRedactor, base?: Logger): MaskedLog {
  const logger = (base ?? processLogger()).child(bindings);
  const mask = (text: string) => (redactor ? redactor.redactText(text) : text);
  const write = (level: Level) => (message: string, error?: unknown) => {
    if (!logger.isLevelEnabled(level)) return;
    if (error === undefined) logger[level](mask(message));
    else logger[level]({ err: errorFields(error, mask) }, mask(message));
  };
  return { debug: write("debug"), info: write("info"), warn: write("warn"), error: write("error") };
}

/** A run's lines: its id and workspace on each, masked by its redactor when given. */
export function runLog(runId: string, workspaceId?: string, redactor?: SecretRedactor): MaskedLog {
  return maskedLog({ runId, ...(workspaceId ? { workspaceId } : {}) }, redactor);
}
