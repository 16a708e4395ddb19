import { processLogDestination } from "../logger";

/** One line of the process logger as written (JSON). */
export interface LogLine {
  level: string;
  msg: string;
  err?: { message?: string; stack?: string };
  [field: string]: unknown;
}

export interface CapturedLogs {
  /** Every line written since the capture began, as written. */
  readonly raw: string[];
  lines(): LogLine[];
  /** Lines at level `error` or above, each as its message and its error's message. */
  errors(): string[];
  /** Sends the lines to standard output again. */
  stop(): void;
}

/** Reads what the server's own logger writes (lib/observability/logger.ts) from now on: the real lines, not a stand-in. */
export function captureLogs(): CapturedLogs {
  const raw: string[] = [];
  const destination = processLogDestination();
  destination.to({ write: (line: string) => void raw.push(line) });
  const lines = () => raw.map((line) => JSON.parse(line) as LogLine);
  return {
    raw,
    lines,
    errors: () =>
      lines()
        .filter((line) => line.level === "error" || line.level === "fatal")
        .map((line) => [line.msg, line.err?.message].filter(Boolean).join(": ")),
    stop: () => destination.to(undefined),
  };
}
