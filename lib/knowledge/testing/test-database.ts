import { readdir, readFile } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { PGlite } from "@electric-sql/pglite";
import { PrismaPGlite } from "pglite-prisma-adapter";
import { PrismaClient } from "@/lib/generated/prisma/client";

const MIGRATIONS = fileURLToPath(new URL("../../../prisma/migrations", import.meta.url));

/**
 * A fresh embedded PostgreSQL (PGlite, in memory) with every migration applied, behind a real
 * Prisma client: the same path the app takes with no DATABASE_URL.
 */
export async function createTestDatabase(): Promise<{ prisma: PrismaClient; pglite: PGlite; close(): Promise<void> }> {
  const pglite = new PGlite();
  const folders = (await readdir(MIGRATIONS, { withFileTypes: true })).filter((entry) => entry.isDirectory()).map((entry) => entry.name).sort();
  for (const folder of folders) await pglite.exec(await readFile(path.join(MIGRATIONS, folder, "migration.sql"), "utf8"));
  const prisma = new PrismaClient({ adapter: new PrismaPGlite(pglite) });
  return {
    prisma,
    pglite,
    async close() {
      await prisma.$disconnect();
      await pglite.close();
    },
  };
}
