// The PGlite driver adapter, made safe for the schema engine. pglite-prisma-adapter 0.7's
// executeScript starts `exec` without awaiting it, so a failing migration script would be recorded
// as applied and its error lost; this factory awaits the script and reports its error.
import { PGlite } from "@electric-sql/pglite";
import { PrismaPGlite } from "pglite-prisma-adapter";

/**
 * @param {import("@electric-sql/pglite").PGlite} client
 * @param {{ shadowClient?: import("@electric-sql/pglite").PGlite }} [options] a scratch PGlite to
 *   use as the shadow database (not closed here); by default a new in-memory one per use
 * @returns {import("@prisma/driver-adapter-utils").SqlMigrationAwareDriverAdapterFactory}
 */
export function createPGliteMigrationAdapterFactory(client, options = {}) {
  const factory = new PrismaPGlite(client);
  return {
    provider: factory.provider,
    adapterName: factory.adapterName,
    connect: async () => withAwaitedScripts(await factory.connect(), client),
    // The shadow database is where the engine replays migrations to diff them: a throwaway
    // in-memory PGlite, so generating a migration needs no server.
    connectToShadowDb: async () => {
      if (options.shadowClient)
        return withAwaitedScripts(await new PrismaPGlite(options.shadowClient).connect(), options.shadowClient);
      const shadow = new PGlite();
      const adapter = withAwaitedScripts(await new PrismaPGlite(shadow).connect(), shadow);
      const dispose = adapter.dispose.bind(adapter);
      adapter.dispose = async () => {
        await dispose();
        await shadow.close();
      };
      return adapter;
    },
  };
}

/**
 * @template {import("@prisma/driver-adapter-utils").SqlDriverAdapter} T
 * @param {T} adapter
 * @param {import("@electric-sql/pglite").PGlite} client
 * @returns {T}
 */
function withAwaitedScripts(adapter, client) {
  adapter.executeScript = async (script) => {
    try {
      await client.exec(script);
    } catch (error) {
      // The adapter's own error mapping turns a PostgreSQL error into a DriverAdapterError.
      /** @type {any} */ (adapter).onError(error);
    }
  };
  return adapter;
}
