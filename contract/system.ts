/** One measuring window of the server thread's event loop (GET /api/health/details). */
export interface EventLoopWindow {
  /** How late the event loop woke past its schedule: the time a request waited for the thread. */
  delayMs: { p50: number; p99: number; max: number };
  /** Share of the window the thread was busy (0..1). */
  utilization: number;
  /** Length of the window the figures cover, in ms. */
  windowMs: number;
}

/** One check of `GET /api/health/ready`: whether a dependency the server needs answers now. */
export interface ReadinessCheck {
  ok: boolean;
  /** How long the check took. */
  latencyMs: number;
  /** Why it failed, in words, without addresses or secrets. */
  error?: string;
}

/** `GET /api/health/ready`: whether this process can serve requests now (200), or not (503). */
export interface Readiness {
  ok: boolean;
  /** By name: `database`, and any check added later (a disk's free space). */
  checks: Record<string, ReadinessCheck>;
}

/** `GET /api/health/details`: how loaded this server process is. Figures only, never names or settings' values that could be secret. */
export interface HealthDetails {
  ok: true;
  uptimeS: number;
  /** The window in progress and the last complete one (null in the first seconds after start). */
  eventLoop: { current: EventLoopWindow; previous: EventLoopWindow | null };
  /**
   * `collected`: a full garbage collection ran just before (asked with `?collect=1`, possible only
   * when the server runs with `--expose-gc`), so `heapUsedMb` is what the process retains.
   */
  memory: { rssMb: number; heapUsedMb: number; externalMb: number; collected: boolean };
  /** Runs this process is executing now. */
  runs: { executing: number };
  /** The Function sandboxes' admission gate: what runs, waits and is reserved against the server's caps. */
  sandboxes: { running: number; waiting: number; reservedMb: number; concurrency: number; memoryMb: number };
}
