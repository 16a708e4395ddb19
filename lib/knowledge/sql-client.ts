import "server-only";
/**
 * The part of a Prisma client that knowledge storage uses: raw SQL (full-text ranking, array
 * cosine, lease claims and bulk chunk inserts have no typed Prisma form) and transactions. Works
 * the same through the PostgreSQL and the embedded PGlite driver adapters.
 */
export interface SqlClient {
  $queryRawUnsafe<T = unknown>(query: string, ...values: unknown[]): Promise<T>;
  $executeRawUnsafe(query: string, ...values: unknown[]): Promise<number>;
}

export interface TransactionalSqlClient extends SqlClient {
  $transaction<R>(fn: (tx: SqlClient) => Promise<R>): Promise<R>;
}

/** A PostgreSQL array literal of strings, passed as one text parameter and cast with `::text[]`. */
export function textArrayLiteral(values: readonly string[]): string {
  return `{${values.map((value) => `"${value.replace(/\\/g, "\\\\").replace(/"/g, '\\"')}"`).join(",")}}`;
}

/** A PostgreSQL array literal of numbers, cast with `::float8[]`. */
export function numberArrayLiteral(values: readonly number[]): string {
  return `{${values.map((value) => (Number.isFinite(value) ? String(value) : "0")).join(",")}}`;
}
