// Which database Trellis uses, from the environment (docs/CONTRACT.md section 4). Plain JavaScript so
// the migration script (run by node before Next starts) and the app share one definition.
import path from "node:path";

/**
 * @param {NodeJS.ProcessEnv} [env]
 * @returns {import("./database-config.d.mts").DatabaseConfig}
 */
export function resolveDatabaseConfig(env = process.env) {
  // Set for the tests that touch no database (vitest.config.ts): one that opens a database is misnamed.
  if (env.TRELLIS_TEST_NO_DATABASE) throw new Error(env.TRELLIS_TEST_NO_DATABASE);
  const url = env.DATABASE_URL?.trim();
  const dataDir = path.resolve(/*turbopackIgnore: true*/ env.DATA_DIR?.trim() || ".data");
  if (url) {
    if (!/^postgres(ql)?:\/\//.test(url)) {
      throw new Error(
        "DATABASE_URL must be a PostgreSQL URL starting with postgresql:// (or unset it to use the embedded database)",
      );
    }
    return { kind: "postgres", url, dataDir };
  }
  const template = env.TRELLIS_TEST_PGLITE_TEMPLATE?.trim();
  return {
    kind: "embedded",
    dataDir,
    databaseDir: path.join(dataDir, "pglite"),
    ...(template ? { template } : {}),
  };
}

/**
 * The URL without its password, for messages and logs.
 * @param {string} url
 */
export function redactDatabaseUrl(url) {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = "***";
    return parsed.toString();
  } catch {
    return "(unparseable DATABASE_URL)";
  }
}
