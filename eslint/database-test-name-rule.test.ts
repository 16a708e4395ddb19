import { trellisPlugin } from "./index.mjs";
import { ruleTester } from "./rule-tester";

ruleTester.run("database-test-name", trellisPlugin.rules["database-test-name"], {
  valid: [
    {
      code: 'import { createTestDatabase } from "@/lib/db/test-database";',
      filename: "lib/runs/run-service.db.test.ts",
    },
    { code: "const url = process.env.DATABASE_URL;", filename: "lib/db/client.db.test.tsx" },
    // Types alone open nothing.
    { code: 'import type { TestDatabase } from "@/lib/db/test-database";', filename: "lib/runs/run-service.test.ts" },
    {
      code: 'import { resolveDatabaseConfig } from "@/lib/db/database-config.mjs";',
      filename: "lib/db/database-config.test.ts",
    },
    { code: 'const env = { ...process.env, DATABASE_URL: "" };', filename: "lib/db/migrate/migration-space.test.ts" },
  ],
  invalid: [
    {
      code: 'import { createTestDatabase } from "@/lib/db/test-database";',
      filename: "lib/runs/run-service.test.ts",
      errors: [{ messageId: "name", data: { what: "createTestDatabase" } }],
    },
    {
      code: 'import { getPrisma } from "@/lib/db";',
      filename: "lib/auth/session.test.ts",
      errors: [{ messageId: "name", data: { what: "getPrisma" } }],
    },
    {
      code: 'import { TEST_ENV } from "./test-env";',
      filename: "lib/db/x.test.ts",
      errors: [{ messageId: "name", data: { what: "TEST_ENV" } }],
    },
    {
      code: 'it.skipIf(!process.env.DATABASE_URL)("listens on PostgreSQL", () => {});',
      filename: "lib/runs/durable/bus.test.ts",
      errors: [{ messageId: "name", data: { what: "DATABASE_URL" } }],
    },
    { code: 'const url = process.env["DATABASE_URL"];', filename: "lib/db/x.test.ts", errors: [{ messageId: "name" }] },
  ],
});
