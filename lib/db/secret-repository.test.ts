import { randomBytes } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync, statSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SecretUnreadableError } from "./errors";
import { SecretRepository } from "./secret-repository";
import { loadSecretKey } from "./secret-key";
import { createTestDatabase, type TestDatabase } from "./test-database";

let database: TestDatabase;
beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(async () => {
  await database?.close();
});

const PLAINTEXT = "sk-live-THIS-IS-THE-PLAINTEXT-0123456789";

describe("SecretRepository", () => {
  it("stores only ciphertext and decrypts on read", async () => {
    const { secrets } = database.repositories;
    await secrets.set("OPENAI_API_KEY", PLAINTEXT);

    const [row] = await database.prisma.$queryRawUnsafe<Array<{ ciphertext: Uint8Array; iv: Uint8Array; auth_tag: Uint8Array; all_columns: string }>>(
      `SELECT ciphertext, iv, auth_tag, row_to_json(s)::text AS all_columns FROM secrets s WHERE name = 'OPENAI_API_KEY'`,
    );
    expect(row).toBeDefined();
    expect(Buffer.from(row!.ciphertext).toString("utf8")).not.toContain(PLAINTEXT);
    expect(Buffer.from(row!.ciphertext).toString("latin1")).not.toContain("THIS-IS-THE-PLAINTEXT");
    expect(row!.all_columns).not.toContain("THIS-IS-THE-PLAINTEXT");
    expect(row!.iv).toHaveLength(12);
    expect(row!.auth_tag).toHaveLength(16);

    expect(await secrets.get("OPENAI_API_KEY")).toBe(PLAINTEXT);
    expect(await secrets.get("MISSING")).toBeNull();
  });

  it("lists names and dates, never values, and replaces a value on set", async () => {
    const { secrets } = database.repositories;
    await secrets.set("B_TOKEN", "first value");
    await secrets.set("A_TOKEN", "a value");
    await secrets.set("B_TOKEN", "second value");
    const listed = await secrets.list();
    expect(listed.map((item) => item.name)).toEqual(expect.arrayContaining(["A_TOKEN", "B_TOKEN"]));
    expect(Object.keys(listed[0]!).sort()).toEqual(["createdAt", "name", "updatedAt"]);
    expect(JSON.stringify(listed)).not.toContain("value");
    expect(await secrets.get("B_TOKEN")).toBe("second value");
    expect(await secrets.getMany(["A_TOKEN", "B_TOKEN", "NOPE"])).toEqual(
      new Map([
        ["A_TOKEN", "a value"],
        ["B_TOKEN", "second value"],
      ]),
    );
  });

  it("deletes secrets and reports unknown names", async () => {
    const { secrets } = database.repositories;
    await secrets.set("TEMPORARY", "x");
    await secrets.delete("TEMPORARY");
    expect(await secrets.get("TEMPORARY")).toBeNull();
    await expect(secrets.delete("TEMPORARY")).rejects.toMatchObject({ code: "not_found" });
  });

  it("refuses names a {{NAME}} reference could not use", async () => {
    await expect(database.repositories.secrets.set("has space", "x")).rejects.toMatchObject({ code: "invalid_input" });
    await expect(database.repositories.secrets.set("1ST", "x")).rejects.toMatchObject({ code: "invalid_input" });
  });

  it("cannot read secrets with a different key, and says so without the value", async () => {
    await database.repositories.secrets.set("GUARDED", PLAINTEXT);
    const otherKey = new SecretRepository(database.prisma, randomBytes(32));
    const attempt = otherKey.get("GUARDED");
    await expect(attempt).rejects.toBeInstanceOf(SecretUnreadableError);
    await expect(attempt).rejects.toSatisfy((error: Error) => !error.message.includes(PLAINTEXT));
  });
});

describe("loadSecretKey", () => {
  let dataDir: string;
  beforeAll(() => {
    dataDir = mkdtempSync(path.join(os.tmpdir(), "trellis-key-"));
  });
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  it("creates DATA_DIR/secret.key once, readable only by its owner, and reuses it", () => {
    const first = loadSecretKey({ env: {}, dataDir });
    const file = path.join(dataDir, "secret.key");
    expect(first).toHaveLength(32);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(loadSecretKey({ env: {}, dataDir })).toEqual(first);
    expect(Buffer.from(readFileSync(file, "utf8").trim(), "base64")).toEqual(first);
  });

  it("prefers TRELLIS_SECRET_KEY and rejects a malformed one without echoing it", () => {
    const hex = randomBytes(32).toString("hex");
    expect(loadSecretKey({ env: { TRELLIS_SECRET_KEY: hex }, dataDir }).toString("hex")).toBe(hex);
    expect(() => loadSecretKey({ env: { TRELLIS_SECRET_KEY: "too-short-key" }, dataDir })).toThrow(/TRELLIS_SECRET_KEY must hold a 32-byte key/);
    expect(() => loadSecretKey({ env: { TRELLIS_SECRET_KEY: "too-short-key" }, dataDir })).not.toThrow(/too-short-key/);
  });
});
