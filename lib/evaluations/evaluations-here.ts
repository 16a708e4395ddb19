import "server-only";

/**
 * The evaluations this process is executing now. An evaluation stored `running` that is not here,
 * and whose process is gone from the workers table, stopped half-way: it is ended when read.
 */
export const evaluationsHere = new Set<string>();
