import { z } from "zod";

/** Answers about the server itself: its health, how loaded it is, whether it can serve now. */

/** GET /api/health: the process answers. */
export const healthSchema = z.object({ ok: z.literal(true) });

/** One check of `GET /api/health/ready`: whether a dependency the server needs answers now. */
export const readinessCheckSchema = z.object({
  ok: z.boolean(),
  latencyMs: z.number().describe("How long the check took."),
  error: z.string().optional().describe("Why it failed, in words, without addresses or secrets."),
});
export type ReadinessCheck = z.infer<typeof readinessCheckSchema>;

/** `GET /api/health/ready`: whether this process can serve requests now (200), or not (503). */
export const readinessSchema = z.object({
  ok: z.boolean(),
  checks: z
    .record(z.string(), readinessCheckSchema)
    .describe("By name: `database`, and any check added later (a disk's free space)."),
});
export type Readiness = z.infer<typeof readinessSchema>;

/** One measuring window of the server thread's event loop (GET /api/health/details). */
export const eventLoopWindowSchema = z.object({
  /** The time a request waited for the thread. */
  delayMs: z
    .object({ p50: z.number(), p99: z.number(), max: z.number() })
    .describe("How late the event loop woke past its schedule."),
  utilization: z.number().describe("Share of the window the thread was busy (0 to 1)."),
  /** Length of the window the figures cover, in ms. */
  windowMs: z.number(),
});
export type EventLoopWindow = z.infer<typeof eventLoopWindowSchema>;

/** `GET /api/health/details`: how loaded this server process is. Figures only, never names or settings' values that could be secret. */
export const healthDetailsSchema = z.object({
  ok: z.literal(true),
  uptimeS: z.number(),
  /** The window in progress and the last complete one (null in the first seconds after start). */
  eventLoop: z.object({ current: eventLoopWindowSchema, previous: eventLoopWindowSchema.nullable() }),
  /**
   * `collected`: a full garbage collection ran just before (asked with `?collect=1`, possible only
   * when the server runs with `--expose-gc`), so `heapUsedMb` is what the process retains.
   */
  memory: z.object({ rssMb: z.number(), heapUsedMb: z.number(), externalMb: z.number(), collected: z.boolean() }),
  /** Runs this process is executing now. */
  runs: z.object({ executing: z.number().int() }),
  /** The Function sandboxes' admission gate: what runs, waits and is reserved against the server's caps. */
  sandboxes: z.object({
    running: z.number().int(),
    waiting: z.number().int(),
    reservedMb: z.number(),
    concurrency: z.number().int(),
    memoryMb: z.number(),
  }),
});
export type HealthDetails = z.infer<typeof healthDetailsSchema>;
