import { defineConfig } from "vitest/config";
import { fileURLToPath } from "node:url";

const outside = ["node_modules/**", "e2e/**", "load/**", ".next/**", ".data/**"];
/** Tests that touch a database are named so: CI runs them on PostgreSQL and again on the embedded database. */
const databaseTests = ["**/*.db.test.ts", "**/*.db.test.tsx"];

export default defineConfig({
  resolve: {
    alias: {
      "@": fileURLToPath(new URL("./", import.meta.url)),
      // `server-only` throws unless resolved under the react-server condition, as Next.js does for
      // server code; tests run server modules in plain Node, so they get its empty module.
      "server-only": fileURLToPath(new URL("./node_modules/server-only/empty.js", import.meta.url)),
    },
  },
  test: {
    environment: "node",
    testTimeout: 30_000,
    hookTimeout: 60_000,
    projects: [
      {
        extends: true,
        test: {
          name: "database",
          include: databaseTests,
          exclude: outside,
          globalSetup: ["./lib/db/test-global-setup.ts"],
        },
      },
      {
        extends: true,
        test: {
          name: "unit",
          include: ["**/*.test.ts", "**/*.test.tsx"],
          exclude: [...outside, ...databaseTests],
          globalSetup: ["./lib/db/test-no-database-setup.ts"],
          // A test here that opens a database (itself, through the app, or in a process it starts) fails
          // with this message, so none can slip past the second database's pass misnamed.
          env: {
            DATABASE_URL: "",
            TRELLIS_TEST_NO_DATABASE:
              "this test opened a database, but its file is not named *.db.test.ts: rename it so CI runs it on PostgreSQL and on the embedded database (vitest.config.ts)",
          },
        },
      },
    ],
  },
});
