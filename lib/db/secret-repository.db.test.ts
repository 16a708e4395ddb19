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
let ws: string;
beforeAll(async () => {
  database = await createTestDatabase();
  ws = await database.createWorkspace();
});
afterAll(async () => {
  await database?.close();
});

const PLAINTEXT = "sk-live-THIS-IS-THE-PLAINTEXT-0123456789";

describe("SecretRepository", () => {
  it("stores only ciphertext and decrypts on read", async () => {
    const { secrets } = database.repositories;
    await secrets.set(ws, "OPENAI_API_KEY", PLAINTEXT);

    const [row] = await database.prisma.$queryRawUnsafe<
      Array<{ ciphertext: Uint8Array; iv: Uint8Array; auth_tag: Uint8Array; all_columns: string }>
    >(
      `SELECT ciphertext, iv, auth_tag, row_to_json(s)::text AS all_columns FROM secrets s WHERE name = 'OPENAI_API_KEY'`,
    );
    expect(row).toBeDefined();
    expect(Buffer.from(row!.ciphertext).toString("utf8")).not.toContain(PLAINTEXT);
    expect(Buffer.from(row!.ciphertext).toString("latin1")).not.toContain("THIS-IS-THE-PLAINTEXT");
    expect(row!.all_columns).not.toContain("THIS-IS-THE-PLAINTEXT");
    expect(row!.iv).toHaveLength(12);
    expect(row!.auth_tag).toHaveLength(16);

    expect(await secrets.get(ws, "OPENAI_API_KEY")).toBe(PLAINTEXT);
    expect(await secrets.get(ws, "MISSING")).toBeNull();
  });

  it("lists names and dates, never values, and replaces a value on set", async () => {
    const { secrets } = database.repositories;
    await secrets.set(ws, "B_TOKEN", "first value");
    await secrets.set(ws, "A_TOKEN", "a value");
    await secrets.set(ws, "B_TOKEN", "second value");
    const listed = await secrets.list(ws);
    expect(listed.map((item) => item.name)).toEqual(expect.arrayContaining(["A_TOKEN", "B_TOKEN"]));
    expect(Object.keys(listed[0]!).sort()).toEqual(["createdAt", "name", "updatedAt"]);
    expect(JSON.stringify(listed)).not.toContain("value");
    expect(await secrets.get(ws, "B_TOKEN")).toBe("second value");
    expect(await secrets.getMany(ws, ["A_TOKEN", "B_TOKEN", "NOPE"])).toEqual(
      new Map([
        ["A_TOKEN", "a value"],
        ["B_TOKEN", "second value"],
      ]),
    );
  });

  it("deletes secrets and reports unknown names", async () => {
    const { secrets } = database.repositories;
    await secrets.set(ws, "TEMPORARY", "x");
    await secrets.delete(ws, "TEMPORARY");
    expect(await secrets.get(ws, "TEMPORARY")).toBeNull();
    await expect(secrets.delete(ws, "TEMPORARY")).rejects.toMatchObject({ code: "not_found" });
  });

  it("refuses names a {{NAME}} reference could not use", async () => {
    await expect(database.repositories.secrets.set(ws, "has space", "x")).rejects.toMatchObject({
      code: "invalid_input",
    });
    await expect(database.repositories.secrets.set(ws, "1ST", "x")).rejects.toMatchObject({ code: "invalid_input" });
    await expect(database.repositories.secrets.set(ws, "openai_key", "x")).rejects.toMatchObject({
      code: "invalid_input",
    });
    await expect(database.repositories.secrets.set(ws, "Mixed_Case", "x")).rejects.toMatchObject({
      code: "invalid_input",
    });
  });

  it("cannot read secrets with a different key, and says so without the value", async () => {
    await database.repositories.secrets.set(ws, "GUARDED", PLAINTEXT);
    const otherKey = new SecretRepository(database.prisma, randomBytes(32));
    const attempt = otherKey.get(ws, "GUARDED");
    await expect(attempt).rejects.toBeInstanceOf(SecretUnreadableError);
    await expect(attempt).rejects.toSatisfy((error: Error) => !error.message.includes(PLAINTEXT));
  });

  it("keeps each workspace's secrets to itself: the same name holds two values, and another workspace cannot read, list or delete them", async () => {
    const { secrets } = database.repositories;
    const other = await database.createWorkspace("Other");
    await secrets.set(ws, "SHARED_NAME", "value of the first workspace");
    await secrets.set(other, "SHARED_NAME", "value of the second workspace");
    await secrets.set(ws, "ONLY_IN_FIRST", "first only");

    expect(await secrets.get(ws, "SHARED_NAME")).toBe("value of the first workspace");
    expect(await secrets.get(other, "SHARED_NAME")).toBe("value of the second workspace");
    expect(await secrets.getMany(other, ["SHARED_NAME", "ONLY_IN_FIRST"])).toEqual(
      new Map([["SHARED_NAME", "value of the second workspace"]]),
    );
    expect(await secrets.get(other, "ONLY_IN_FIRST")).toBeNull();
    expect((await secrets.list(other)).map((item) => item.name)).toEqual(["SHARED_NAME"]);
    await expect(secrets.delete(other, "ONLY_IN_FIRST")).rejects.toMatchObject({ code: "not_found" });

    // Deleting one workspace's secret leaves the other's of the same name alone.
    await secrets.delete(other, "SHARED_NAME");
    expect(await secrets.get(other, "SHARED_NAME")).toBeNull();
    expect(await secrets.get(ws, "SHARED_NAME")).toBe("value of the first workspace");
    expect(await secrets.get(ws, "ONLY_IN_FIRST")).toBe("first only");
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
    expect(() => loadSecretKey({ env: { TRELLIS_SECRET_KEY: "too-short-key" }, dataDir })).toThrow(
      /TRELLIS_SECRET_KEY must hold a 32-byte key/,
    );
    expect(() => loadSecretKey({ env: { TRELLIS_SECRET_KEY: "too-short-key" }, dataDir })).not.toThrow(/too-short-key/);
  });
});
