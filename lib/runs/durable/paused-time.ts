import type { RunEvent } from "@/contract";

/** Time a run spent paused for a person, from its events (each run.paused up to the next run.resumed, or now). */
export function pausedMsOf(events: readonly RunEvent[], now = Date.now()): number {
  let total = 0;
  let since: number | undefined;
  for (const event of events) {
    if (event.type === "run.paused") since = Date.parse(event.pausedAt);
    else if (event.type === "run.resumed" && since !== undefined) {
      total += Math.max(0, Date.parse(event.resumedAt) - since);
      since = undefined;
    }
  }
  return since === undefined ? total : total + Math.max(0, now - since);
}
