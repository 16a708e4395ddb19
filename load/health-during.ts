/**
 * Health measured while something else runs: GET /api/health on a fixed schedule (a stalled server
 * shows as slow answers, not as fewer questions) from before `work` starts until it ends.
 */
import { callApi } from "./http";
import type { LoadApp } from "./load-app";
import { latencyFigures } from "./measure";

export const HEALTH_EVERY_MS = 20;

export interface HealthDuring<T> {
  result: T;
  health: ReturnType<typeof latencyFigures>;
  failures: string[];
  workMs: number;
}

export async function healthDuring<T>(app: LoadApp, work: () => Promise<T>): Promise<HealthDuring<T>> {
  const latencies: number[] = [];
  const failures: string[] = [];
  const inFlight = new Set<Promise<void>>();
  const ask = () => {
    const sent = performance.now();
    const pending = callApi(app, "GET", "/api/health")
      .then((answer) => {
        latencies.push(performance.now() - sent);
        if (answer.status !== 200) failures.push(`HTTP ${answer.status}`);
      })
      .catch((error: unknown) => void failures.push(String(error)))
      .finally(() => inFlight.delete(pending));
    inFlight.add(pending);
  };
  const timer = setInterval(ask, HEALTH_EVERY_MS);
  const started = performance.now();
  let result: T;
  try {
    result = await work();
  } finally {
    clearInterval(timer);
    await Promise.all([...inFlight]);
  }
  return { result, health: latencyFigures(latencies), failures, workMs: Math.round(performance.now() - started) };
}
