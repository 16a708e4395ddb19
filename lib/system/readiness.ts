import "server-only";
import type { Readiness, ReadinessCheck } from "@/contract";
import { isDatabaseUnreachable } from "@/lib/db";

/**
 * One thing the process needs to serve requests, checked on every readiness probe: `check`
 * resolves when it is usable and throws when not (with a message for operators: no address, no
 * secret). The database is one; a disk's free space would be another.
 */
export interface ReadinessProbe {
  name: string;
  check(): Promise<void>;
}

/** A check that takes longer fails: a probe must answer within the balancer's own timeout. */
export const READINESS_TIMEOUT_MS = 2_000;
/** What a 503 from readiness (or any `database_unavailable`) tells the caller to wait, in seconds. */
export const RETRY_AFTER_S = 5;

async function run(probe: ReadinessProbe, timeoutMs: number): Promise<ReadinessCheck> {
  const begin = performance.now();
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timedOut = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${probe.name} did not answer within ${timeoutMs} ms`)), timeoutMs);
  });
  try {
    await Promise.race([probe.check(), timedOut]);
    return { ok: true, latencyMs: Math.round(performance.now() - begin) };
  } catch (error) {
    return {
      ok: false,
      latencyMs: Math.round(performance.now() - begin),
      error: error instanceof Error ? error.message : String(error),
    };
  } finally {
    clearTimeout(timer);
  }
}

/** Runs every probe at once; ready when all pass. */
export async function checkReadiness(
  probes: readonly ReadinessProbe[],
  timeoutMs = READINESS_TIMEOUT_MS,
): Promise<Readiness> {
  const results = await Promise.all(probes.map(async (probe) => [probe.name, await run(probe, timeoutMs)] as const));
  return { ok: results.every(([, check]) => check.ok), checks: Object.fromEntries(results) };
}

/** The database answers a trivial query. Its driver's message is not passed on (it may name the host). */
export function databaseProbe(query: () => Promise<unknown>): ReadinessProbe {
  return {
    name: "database",
    async check() {
      try {
        await query();
      } catch (error) {
        throw new Error(
          isDatabaseUnreachable(error) ? "The database cannot be reached." : "The database refused a trivial query.",
        );
      }
    },
  };
}

/**
 * The disk holding `folder` keeps the reserve free: below it large writes are refused with 507, and
 * the embedded database may be reopening, so a balancer should send traffic elsewhere meanwhile.
 */
export function diskProbe(
  folder: string,
  check: (folder: string) => Promise<{ ok: boolean; freeBytes: number; reserveBytes: number }>,
): ReadinessProbe {
  return {
    name: "disk",
    async check() {
      const space = await check(folder);
      if (!space.ok) {
        const megabytes = (bytes: number) => `${Math.round(bytes / 1024 / 1024)} MB`;
        throw new Error(
          `The disk holding the database has ${megabytes(space.freeBytes)} free, under the ${megabytes(space.reserveBytes)} kept free.`,
        );
      }
    },
  };
}
