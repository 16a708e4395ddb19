import { afterEach, describe, expect, it } from "vitest";
import { EventLoopMonitor } from "./event-loop-monitor";

const ticks = (count: number) => new Promise<void>((resolve) => setTimeout(resolve, count * 15));

function blockThread(ms: number): void {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    // busy: the stall a CPU-heavy request would cause
  }
}

describe("event loop monitor", () => {
  const monitors: EventLoopMonitor[] = [];
  afterEach(() => monitors.splice(0).forEach((monitor) => monitor.stop()));
  const started = () => {
    const monitor = new EventLoopMonitor(60_000).start();
    monitors.push(monitor);
    return monitor;
  };

  it("reports a stall of the server's thread as the delay a request waiting behind it saw", async () => {
    const monitor = started();
    await ticks(3);
    blockThread(300);
    await ticks(3);
    const { current } = monitor.report();
    expect(current.delayMs.max).toBeGreaterThanOrEqual(250);
    expect(current.utilization).toBeGreaterThan(0.3);
  });

  it("keeps the last complete window when a new one starts, so a stall that just passed stays visible", async () => {
    const monitor = started();
    await ticks(2);
    blockThread(200);
    await ticks(2);
    expect(monitor.report().previous).toBeNull();
    monitor.roll();
    await ticks(3);
    const { current, previous } = monitor.report();
    expect(previous?.delayMs.max).toBeGreaterThanOrEqual(150);
    expect(current.delayMs.max).toBeLessThan(150);
  });
});
