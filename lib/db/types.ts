import "server-only";
import type { RunEvent } from "@/contract";

/** Plain objects the database layer returns: no Prisma types, dates as ISO 8601 strings. */

/** A stored run event; `seq` is its SSE id, counted per run from 1. */
export interface StoredRunEvent {
  seq: number;
  event: RunEvent;
  createdAt: string;
}

/** What listing secrets returns: never the value. */
export interface SecretSummary {
  name: string;
  createdAt: string;
  updatedAt: string;
}
