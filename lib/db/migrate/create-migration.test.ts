import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createMigration } from "./create-migration.mjs";
import { MIGRATIONS_DIR, SCHEMA_PATH } from "./migrations-directory.mjs";

describe("createMigration (npm run db:diff)", () => {
  let scratchDir: string;
  beforeAll(() => {
    scratchDir = mkdtempSync(path.join(os.tmpdir(), "trellis-diff-"));
  });
  afterAll(() => rmSync(scratchDir, { recursive: true, force: true }));

  it("finds prisma/schema.prisma in step with the committed migrations", async () => {
    const migrationsDir = path.join(scratchDir, "as-committed");
    cpSync(MIGRATIONS_DIR, migrationsDir, { recursive: true });
    const created = await createMigration("unexpected_drift", { migrationsDir });
    // If this fails, someone changed schema.prisma without `npm run db:diff -- <name>`.
    expect(created?.sql ?? null).toBeNull();
  });

  it("writes a schema change as <timestamp>_<name>/migration.sql, then finds nothing more to write", async () => {
    const migrationsDir = path.join(scratchDir, "changed");
    cpSync(MIGRATIONS_DIR, migrationsDir, { recursive: true });
    const schemaPath = path.join(scratchDir, "schema.prisma");
    writeFileSync(
      schemaPath,
      `${readFileSync(SCHEMA_PATH, "utf8")}\nmodel Note {\n  id   String @id\n  text String\n\n  @@map("notes")\n}\n`,
    );

    const created = await createMigration("add_notes", {
      migrationsDir,
      schemaPath,
      now: new Date("2030-01-02T03:04:05Z"),
    });
    expect(created?.directory).toBe(path.join(migrationsDir, "20300102030405_add_notes"));
    expect(created?.sql).toContain('CREATE TABLE "notes"');
    expect(readdirSync(path.join(migrationsDir, "20300102030405_add_notes"))).toEqual(["migration.sql"]);

    expect(await createMigration("add_notes_again", { migrationsDir, schemaPath })).toBeNull();
    await expect(createMigration("Bad Name", { migrationsDir, schemaPath })).rejects.toThrow(
      /must be 1 to 100 characters of a-z, 0-9 and _/,
    );
  });
});
