import "server-only";
import { Writable } from "node:stream";
import pino, { type DestinationStream, type Logger } from "pino";
import pretty from "pino-pretty";
import { SecretRedactor } from "@/executor";
import { currentLogContext } from "./log-context";
import { LOG_LEVEL_VARIABLE, logLevelFrom, type LogLevel } from "./log-level";
import { operatorSecrets } from "./operator-secrets";

export type { Logger } from "pino";

/** `json`: one JSON object a line (for a log pipeline); `pretty`: coloured and aligned, for a person at a terminal. */
export type LogFormat = "json" | "pretty";

export interface LoggerOptions {
  level: LogLevel;
  format: LogFormat;
  /** Masks every value it knows in each line before it is written. */
  redactor: SecretRedactor;
  /** Where lines go (default: standard output). */
  destination?: DestinationStream;
}

/**
 * The server's logger: pino, with `level` as a name, `time` as an ISO date, `msg`, and the ids of
 * what is being handled (log-context.ts) on every line. Each line is masked as a whole just before
 * it is written, so a credential in a message, a field or an error's stack is never printed.
 */
export function createLogger(options: LoggerOptions): Logger {
  const { redactor } = options;
  return pino(
    {
      level: options.level,
      base: { pid: process.pid },
      timestamp: pino.stdTimeFunctions.isoTime,
      formatters: { level: (label) => ({ level: label }) },
      mixin: () => ({ ...currentLogContext() }),
      hooks: { streamWrite: (line) => redactor.redactText(line) },
    },
    options.format === "pretty"
      ? pretty({
          colorize: true,
          sync: true,
          translateTime: "SYS:HH:MM:ss.l",
          ignore: "pid",
          // A stream it can pipe into (standard output when none is given).
          ...(options.destination ? { destination: options.destination as Writable } : {}),
        })
      : (options.destination ?? pino.destination({ dest: 1, sync: true })),
  );
}

/** LOG_FORMAT when set (json or pretty); otherwise pretty under `next dev` (NODE_ENV=development), JSON elsewhere. */
export function logFormatFrom(format: string | undefined, nodeEnv: string | undefined): LogFormat {
  const value = format?.trim().toLowerCase();
  if (value === "json" || value === "pretty") return value;
  if (value) throw new Error(`LOG_FORMAT="${format}" is not a log format; use json or pretty`);
  return nodeEnv === "development" ? "pretty" : "json";
}

/** Sends the process logger's lines to `destination` instead of standard output (tests that read what the server logs). */
export interface SwitchableDestination extends Writable {
  to(destination: DestinationStream | undefined): void;
}

/** A stream (pino-pretty pipes into one) that hands each line to standard output, or to where a test points it. */
function switchable(fallback: () => DestinationStream): SwitchableDestination {
  let current: DestinationStream | undefined;
  let standard: DestinationStream | undefined;
  const stream = new Writable({
    decodeStrings: false,
    write(line: string | Buffer, _encoding, done) {
      (current ?? (standard ??= fallback())).write(typeof line === "string" ? line : line.toString("utf8"));
      done();
    },
  });
  return Object.assign(stream, {
    to(destination: DestinationStream | undefined) {
      current = destination;
    },
  });
}

const KEY = Symbol.for("trellis.logger");
type Shared = { [KEY]?: { logger: Logger; destination: SwitchableDestination } };

function processLogging(): NonNullable<Shared[typeof KEY]> {
  const shared = globalThis as Shared;
  if (!shared[KEY]) {
    const env = (name: string) => process.env[name];
    const format = logFormatFrom(env("LOG_FORMAT"), env("NODE_ENV"));
    const destination = switchable(() =>
      format === "pretty" ? process.stdout : pino.destination({ dest: 1, sync: true }),
    );
    const logger = createLogger({
      level: logLevelFrom(env(LOG_LEVEL_VARIABLE)),
      format,
      redactor: new SecretRedactor(operatorSecrets(env, Object.keys(process.env))),
      destination,
    });
    shared[KEY] = { logger, destination };
  }
  return shared[KEY];
}

/**
 * This process's logger (one per process, kept on globalThis since Next bundles routes apart),
 * configured by LOG_LEVEL and LOG_FORMAT when first used. A bad LOG_LEVEL throws, naming it.
 */
export function processLogger(): Logger {
  return processLogging().logger;
}

/** Where the process logger writes: tests point it at a stream of their own and back (`to(undefined)`). */
export function processLogDestination(): SwitchableDestination {
  return processLogging().destination;
}
