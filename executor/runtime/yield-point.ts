/**
 * Gives the event loop back during long runs of work that never leaves the microtask queue: a
 * loop whose blocks resolve at once (set, condition, a cached value) otherwise runs all of its
 * iterations in one macrotask, and a 10,000-iteration loop in the web process held every other
 * request for 200 ms at p99. A check costs one clock read; the turn is handed back once per slice.
 */
export const YIELD_SLICE_MS = 10;

type Schedule = (resume: () => void) => void;

// setImmediate runs after pending I/O (Node); a browser, which has none, falls back to a timer.
const nextTurn: Schedule =
  typeof globalThis.setImmediate === "function"
    ? (resume) => globalThis.setImmediate(resume)
    : (resume) => setTimeout(resume, 0);

export class YieldPoint {
  private sliceStart = performance.now();

  constructor(private readonly sliceMs = YIELD_SLICE_MS) {}

  /** Resolves at once within a slice; past it, on the event loop's next turn. */
  async pass(): Promise<void> {
    if (performance.now() - this.sliceStart < this.sliceMs) return;
    await new Promise<void>(nextTurn);
    this.sliceStart = performance.now();
  }
}
