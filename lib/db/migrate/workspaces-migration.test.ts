import { PGlite } from "@electric-sql/pglite";
import { cpSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { applyMigrationsToPGlite } from "./apply-migrations.mjs";
import { MIGRATIONS_DIR } from "./migrations-directory.mjs";

/**
 * An install from before workspaces keeps its data: the workspaces migration moves every
 * workflow, run, knowledge base, secret and API key into a first workspace owned by the first
 * user, with later users as editors.
 */

const WORKSPACES_MIGRATION = readdirSync(MIGRATIONS_DIR).find((name) => name.endsWith("_workspaces"))!;
const scratch = mkdtempSync(path.join(os.tmpdir(), "trellis-ws-migration-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** The committed migrations before the workspaces one. */
function migrationsBeforeWorkspaces(): string {
  const dir = path.join(scratch, "before");
  for (const name of readdirSync(MIGRATIONS_DIR)) {
    if (name >= WORKSPACES_MIGRATION && name !== "migration_lock.toml") continue;
    cpSync(path.join(MIGRATIONS_DIR, name), path.join(dir, name), { recursive: true });
  }
  return dir;
}

async function rows<T>(client: PGlite, sql: string): Promise<T[]> {
  return (await client.query<T>(sql)).rows;
}

describe("the workspaces migration", () => {
  it("moves existing data into a first workspace owned by the first user", async () => {
    const client = new PGlite();
    await applyMigrationsToPGlite(client, { migrationsDir: migrationsBeforeWorkspaces() });
    await client.exec(`
      INSERT INTO users (id, name, email, created_at) VALUES ('u-second', 'Second', 'second@example.com', '2026-02-01'), ('u-owner', 'Owner', 'owner@example.com', '2026-01-01');
      INSERT INTO workflows (id, name, document, updated_at) VALUES ('wf-1', 'Old flow', '{"blocks":[],"edges":[],"variables":{}}', now());
      INSERT INTO runs (id, workflow_id, status, input) VALUES ('run-1', 'wf-1', 'succeeded', '{}');
      INSERT INTO knowledge_bases (id, name, embedding_model, chunk_size, chunk_overlap, updated_at) VALUES ('kb-1', 'Notes', 'offline/hash-embed', 500, 50, now());
      INSERT INTO secrets (id, name, ciphertext, iv, auth_tag, updated_at) VALUES ('s-1', 'OPENAI_API_KEY', '\\x00', '\\x00', '\\x00', now());
      INSERT INTO api_keys (id, user_id, name, prefix, hash) VALUES ('k-1', 'u-owner', 'ci', 'trl_abc', 'hash-1');
    `);
    expect(await applyMigrationsToPGlite(client)).toContain(WORKSPACES_MIGRATION);

    const [workspace, ...others] = await rows<{ id: string; name: string }>(client, "SELECT id, name FROM workspaces");
    expect(others).toEqual([]);
    expect(workspace!.name).toBe("Main workspace");
    expect(await rows(client, "SELECT user_id, role FROM workspace_members ORDER BY role DESC")).toEqual([
      { user_id: "u-owner", role: "owner" },
      { user_id: "u-second", role: "editor" },
    ]);
    for (const table of ["workflows", "runs", "knowledge_bases", "secrets", "api_keys"]) {
      expect([table, await rows(client, `SELECT DISTINCT workspace_id FROM ${table}`)]).toEqual([
        table,
        [{ workspace_id: workspace!.id }],
      ]);
    }
    await client.close();
  });

  it("makes no workspace on an empty install: the owner's account makes it", async () => {
    const client = new PGlite();
    await applyMigrationsToPGlite(client);
    expect(await rows(client, "SELECT id FROM workspaces")).toEqual([]);
    await client.close();
  });
});
