import type { Repositories } from "@/lib/db";

/** The storage an attempt at a run writes to (and the budget caps it reads), in a file of its own so the run's end and its execution share it without importing each other. */
export type ExecutionRepositories = Pick<Repositories, "runs" | "spans" | "runEvents" | "checkpoints" | "runWriter"> &
  Partial<Pick<Repositories, "budgets">>;
