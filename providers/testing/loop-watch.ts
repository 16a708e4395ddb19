/**
 * Watches the event loop with a short timer: the longest gap between two ticks is the longest time
 * something held the loop (a request arriving then would have waited that long).
 */
export function watchLoop(intervalMs = 5): { stop(): { longestHoldMs: number; ticks: number } } {
  let last = performance.now();
  let longest = 0;
  let ticks = 0;
  const timer = setInterval(() => {
    const now = performance.now();
    longest = Math.max(longest, now - last);
    last = now;
    ticks += 1;
  }, intervalMs);
  return {
    stop() {
      clearInterval(timer);
      longest = Math.max(longest, performance.now() - last);
      return { longestHoldMs: longest, ticks };
    },
  };
}
