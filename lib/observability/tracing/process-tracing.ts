import "server-only";
import { otlpSettingsFrom } from "./otlp-settings";
import type { TracingSdk } from "./tracing-sdk";

const KEY = Symbol.for("trellis.tracing");
type Shared = { [KEY]?: { started: Promise<TracingSdk | undefined>; sdk?: TracingSdk } };

/**
 * Starts exporting traces when OTLP is configured (at start-up: instrumentation.ts, the worker),
 * once per process. With no endpoint set it loads nothing and answers undefined; a bad setting
 * throws, naming it.
 */
export function startTracing(env: (name: string) => string | undefined = (name) => process.env[name]) {
  const shared = globalThis as Shared;
  if (!shared[KEY]) {
    const settings = otlpSettingsFrom(env);
    const holder: NonNullable<Shared[typeof KEY]> = { started: Promise.resolve(undefined) };
    holder.started = settings
      ? import("./tracing-sdk").then(async ({ startTracingSdk }) => {
          holder.sdk = await startTracingSdk(settings, env("npm_package_version") ?? "unknown");
          return holder.sdk;
        })
      : Promise.resolve(undefined);
    shared[KEY] = holder;
  }
  return shared[KEY].started;
}

/** The process's tracing once started, or undefined (OTLP unset, or not started yet): a run's spans are then not exported. */
export function activeTracing(): TracingSdk | undefined {
  return (globalThis as Shared)[KEY]?.sdk;
}
