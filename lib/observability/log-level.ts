/** The levels LOG_LEVEL may name, quietest last; `silent` logs nothing. */
export const LOG_LEVELS = ["trace", "debug", "info", "warn", "error", "fatal", "silent"] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

export const LOG_LEVEL_VARIABLE = "LOG_LEVEL";
export const DEFAULT_LOG_LEVEL: LogLevel = "info";

/** LOG_LEVEL read: unset or empty is `info`; anything else unknown is refused, naming the variable and the choices. */
export function logLevelFrom(text: string | undefined): LogLevel {
  const value = text?.trim().toLowerCase();
  if (!value) return DEFAULT_LOG_LEVEL;
  if ((LOG_LEVELS as readonly string[]).includes(value)) return value as LogLevel;
  throw new Error(`${LOG_LEVEL_VARIABLE}="${text}" is not a log level; use one of ${LOG_LEVELS.join(", ")}`);
}
