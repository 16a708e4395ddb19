/**
 * Run by otlp-unset.test.ts in a process of its own: starts tracing as the server does and prints
 * which OpenTelemetry modules got loaded (they are CommonJS, so loading one puts it in require's cache).
 */
import { createRequire } from "node:module";
import { activeTracing, startTracing } from "@/lib/observability";

const started = await startTracing();
const loaded = Object.keys(createRequire(import.meta.url).cache).filter((file) => file.includes("@opentelemetry"));
process.stdout.write(`${JSON.stringify({ started: Boolean(started), active: Boolean(activeTracing()), loaded })}\n`);
await started?.shutdown();
