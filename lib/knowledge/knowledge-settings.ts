import "server-only";
import { DEFAULT_INGEST_TIME_BUDGET_MS, INGEST_TIME_BUDGET_SETTING } from "@/knowledge";

/** Upload limits: per file and per request. */
export const UPLOAD_LIMITS = { maxFileBytes: 10 * 1024 * 1024, maxFiles: 20 };

/** TRELLIS_INGEST_TIME_BUDGET_MS: how long one document may take to parse and chunk (default 2 minutes). */
export function ingestTimeBudgetMs(env: (name: string) => string | undefined): number {
  const raw = env(INGEST_TIME_BUDGET_SETTING)?.trim();
  if (!raw) return DEFAULT_INGEST_TIME_BUDGET_MS;
  const value = Number(raw);
  const max = 24 * 3_600_000;
  if (!Number.isInteger(value) || value < 1_000 || value > max)
    throw new Error(`${INGEST_TIME_BUDGET_SETTING} must be a whole number from 1000 to ${max}, not "${raw}"`);
  return value;
}
