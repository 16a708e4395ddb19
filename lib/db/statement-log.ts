import { AsyncLocalStorage } from "node:async_hooks";
import pg from "pg";

/**
 * Counts the statements this process sends to the database, and which of them a piece of work
 * caused: what it ran itself (anything started from it, timers and group-commit batches included)
 * plus what names the run it is about (the queue's own workers handle a run by its id). Every
 * statement is one round trip: `pg` sends a query's messages together and waits for its answer.
 * Prisma, DBOS and the run writer all go through `pg` when the database has a URL (the embedded one
 * served, `createTestDatabase({ serve: true })`); Prisma's direct PGlite adapter is not seen.
 * For tests and benchmarks: it patches `pg.Client.prototype.query` while recording.
 */

export interface LoggedStatement {
  /** Verb and table, e.g. "INSERT runs", "SELECT secrets", "BEGIN". */
  purpose: string;
  text: string;
  /** The work it was sent for, when it was sent from inside `follow`. */
  work: string | undefined;
  /** Its text and parameters as one string, to find the ids it names. */
  searchable: string;
}

/** "INSERT runs", "UPDATE dbos.workflow_status", "BEGIN": what a statement does and to which table. */
export function statementPurpose(text: string): string {
  const sql = text.replace(/\s+/g, " ").trim();
  const verb =
    /^(WITH|SELECT|INSERT|UPDATE|DELETE|BEGIN|COMMIT|ROLLBACK|NOTIFY|LISTEN|SET|DECLARE)\b/i
      .exec(sql)?.[1]
      ?.toUpperCase() ??
    sql.split(" ")[0] ??
    "";
  if (verb === "BEGIN" || verb === "COMMIT" || verb === "ROLLBACK" || verb === "LISTEN") return verb;
  // A statement of several CTEs is named by the tables it writes.
  // "ON CONFLICT ... DO UPDATE SET" updates the row it inserts: no table of its own.
  const written = [...sql.matchAll(/\b(?:INSERT INTO|(?<!DO )UPDATE)\s+((?:"?\w+"?\.)?"?\w+"?)/gi)].map((match) =>
    tableName(match[1]!),
  );
  if (verb === "WITH" && written.length > 0) return `WRITE ${[...new Set(written)].join("+")}`;
  if (verb === "INSERT" || verb === "UPDATE") return `${verb} ${written[0] ?? "?"}`;
  const read = /\b(?:FROM|INTO)\s+((?:"?\w+"?\.)?"?\w+"?)/i.exec(sql)?.[1];
  if (/pg_notify/i.test(sql)) return "NOTIFY";
  return `${verb} ${read ? tableName(read) : "(no table)"}`;
}

function tableName(raw: string): string {
  const name = raw.replace(/"/g, "");
  return name.startsWith("public.") ? name.slice("public.".length) : name;
}

/** Statements grouped by purpose, most frequent first: "INSERT runs x1, WRITE spans+run_events x2". */
export function statementsByPurpose(statements: readonly LoggedStatement[]): Array<[string, number]> {
  const counts = new Map<string, number>();
  for (const statement of statements) counts.set(statement.purpose, (counts.get(statement.purpose) ?? 0) + 1);
  return [...counts.entries()].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]));
}

export interface StatementLog {
  /** Runs `work`, counting every statement it causes as `label`'s. */
  follow<T>(label: string, work: () => Promise<T>): Promise<T>;
  /** The statements `label`'s work sent, and those naming any of `ids` (sent by the queue's workers for it). */
  statementsOf(label: string, ids?: readonly string[]): LoggedStatement[];
  stop(): void;
}

type Query = typeof pg.Client.prototype.query;

export function startStatementLog(): StatementLog {
  const context = new AsyncLocalStorage<string>();
  const logged: LoggedStatement[] = [];
  const original: Query = pg.Client.prototype.query;
  const patched = function (this: pg.Client, ...args: unknown[]) {
    const [first, second] = args;
    const config =
      typeof first === "object" && first !== null ? (first as { text?: string; values?: unknown[] }) : undefined;
    const text = typeof first === "string" ? first : (config?.text ?? "");
    const values = Array.isArray(second) ? second : config?.values;
    if (text) {
      let searchable = text;
      try {
        searchable += JSON.stringify(values ?? []);
      } catch {
        // Parameters that cannot be serialised (buffers with cycles) only lose their ids.
      }
      logged.push({ purpose: statementPurpose(text), text, work: context.getStore(), searchable });
    }
    return (original as (...input: unknown[]) => unknown).apply(this, args);
  };
  pg.Client.prototype.query = patched as unknown as Query;
  return {
    follow: (label, work) => context.run(label, work),
    statementsOf: (label, ids = []) =>
      logged.filter((statement) => statement.work === label || ids.some((id) => statement.searchable.includes(id))),
    stop() {
      if (pg.Client.prototype.query === (patched as unknown as Query)) pg.Client.prototype.query = original;
    },
  };
}
