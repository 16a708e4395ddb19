import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, type TestDatabase } from "@/lib/db/test-database";
import { createWorkspace, startEmbeddingServer, type EmbeddingServer } from "./__fixtures__/knowledge-test-kit";
import { workspaceProviderEnv } from "./knowledge-runtime";
import { createKnowledgeService, type KnowledgeService } from "./knowledge-service";

/**
 * Embeddings use the settings of the workspace that owns the base: its stored OPENAI_API_KEY, else
 * the process's, read fresh each time; the server is always the operator's (the process's
 * OPENAI_BASE_URL), and a workspace that stores one of its own is refused, its server never called.
 */

const MODEL = "openai/text-embedding-3-small";
const KEY_A = "sk-workspace-a-0123456789";
const KEY_B = "sk-workspace-b-0123456789";

let database: TestDatabase;
let service: KnowledgeService;
/** The operator's server (the process's OPENAI_BASE_URL) and the one workspace B tried to configure for itself. */
let processServer: EmbeddingServer;
let ownServer: EmbeddingServer;
const envCalls: string[] = [];
let a: { workspaceId: string; baseId: string };
let b: { workspaceId: string; baseId: string };

const text = (value: string) => new TextEncoder().encode(value);
const authorizationsFor = (server: EmbeddingServer, word: string) =>
  server.received
    .filter((request) => request.input.some((input) => input.includes(word)))
    .map((request) => request.authorization);

beforeAll(async () => {
  database = await createTestDatabase();
  [processServer, ownServer] = await Promise.all([startEmbeddingServer(), startEmbeddingServer()]);
  const processEnv: Record<string, string> = {
    OPENAI_BASE_URL: processServer.baseUrl,
    OPENAI_API_KEY: "sk-operator-0123456789",
  };
  const envFor = workspaceProviderEnv(database.repositories.secrets, (name) => processEnv[name]);
  service = createKnowledgeService({
    db: database.prisma,
    envFor: (workspaceId) => {
      envCalls.push(workspaceId);
      return envFor(workspaceId);
    },
  });
  const workspaceA = await createWorkspace(database, "A");
  const workspaceB = await createWorkspace(database, "B");
  await database.repositories.secrets.set(workspaceA, "OPENAI_API_KEY", KEY_A);
  await database.repositories.secrets.set(workspaceB, "OPENAI_API_KEY", KEY_B);
  a = {
    workspaceId: workspaceA,
    baseId: (await service.createBase(workspaceA, { name: "A", embeddingModel: MODEL })).id,
  };
  b = {
    workspaceId: workspaceB,
    baseId: (await service.createBase(workspaceB, { name: "B", embeddingModel: MODEL })).id,
  };
  // Stored after its base was made: the refusal holds for every later embedding, not only at creation.
  await database.repositories.secrets.set(workspaceB, "OPENAI_BASE_URL", ownServer.baseUrl);
});

afterAll(async () => {
  await service?.stop();
  await database?.close();
  await Promise.all([processServer?.close(), ownServer?.close()]);
});

describe("embedding with the workspace's provider settings", () => {
  it("processes each uploaded document with its base's workspace's key at the operator's server, and refuses a workspace's own server", async () => {
    envCalls.length = 0;
    await service.uploadDocuments(a.workspaceId, a.baseId, [
      { name: "alpha.md", bytes: text("# Alpha\n\nAlphaword policy.") },
    ]);
    await service.uploadDocuments(b.workspaceId, b.baseId, [
      { name: "bravo.md", bytes: text("# Bravo\n\nBravoword policy.") },
    ]);
    await service.drain();
    expect((await service.listDocuments(a.workspaceId, a.baseId)).items[0]).toMatchObject({
      status: "ready",
      error: null,
    });
    const refused = (await service.listDocuments(b.workspaceId, b.baseId)).items[0];
    expect(refused).toMatchObject({ status: "failed" });
    expect(JSON.stringify(refused)).toContain("stores a secret named OPENAI_BASE_URL");
    expect(authorizationsFor(processServer, "Alphaword")).toEqual([`Bearer ${KEY_A}`]);
    expect(ownServer.received).toEqual([]);
    expect(authorizationsFor(processServer, "Bravoword")).toEqual([]);
    expect(envCalls.sort()).toEqual([a.workspaceId, b.workspaceId].sort());
  });

  it("embeds each workspace's search query with that workspace's settings", async () => {
    envCalls.length = 0;
    await service.search(a.workspaceId, { knowledgeBaseIds: [a.baseId], query: "alphaquery", mode: "vector" });
    await expect(
      service.search(b.workspaceId, { knowledgeBaseIds: [b.baseId], query: "bravoquery", mode: "vector" }),
    ).rejects.toThrow(/stores a secret named OPENAI_BASE_URL/);
    expect(authorizationsFor(processServer, "alphaquery")).toEqual([`Bearer ${KEY_A}`]);
    expect(ownServer.received).toEqual([]);
    expect(envCalls).toEqual([a.workspaceId, b.workspaceId]);
  });

  it("uses a changed key for the next embedding, without a new service", async () => {
    await database.repositories.secrets.set(a.workspaceId, "OPENAI_API_KEY", "sk-workspace-a-rotated-0123");
    await service.search(a.workspaceId, { knowledgeBaseIds: [a.baseId], query: "rotatedquery", mode: "vector" });
    expect(authorizationsFor(processServer, "rotatedquery")).toEqual(["Bearer sk-workspace-a-rotated-0123"]);
    // Without its secret the workspace falls back to the operator's key.
    await database.repositories.secrets.delete(a.workspaceId, "OPENAI_API_KEY");
    await service.search(a.workspaceId, { knowledgeBaseIds: [a.baseId], query: "fallbackquery", mode: "vector" });
    expect(authorizationsFor(processServer, "fallbackquery")).toEqual(["Bearer sk-operator-0123456789"]);
  });

  it("checks a new base's embedding model against the workspace's settings", async () => {
    const keyless = createKnowledgeService({
      db: database.prisma,
      envFor: workspaceProviderEnv(database.repositories.secrets, () => undefined),
    });
    const withoutKey = await createWorkspace(database, "No key");
    await expect(keyless.createBase(withoutKey, { name: "x", embeddingModel: MODEL })).rejects.toMatchObject({
      code: "invalid_request",
      message: expect.stringMatching(/OPENAI_API_KEY/),
    });
    await database.repositories.secrets.set(withoutKey, "OPENAI_API_KEY", "sk-now-set-0123456789");
    await expect(keyless.createBase(withoutKey, { name: "x", embeddingModel: MODEL })).resolves.toMatchObject({
      embeddingModel: MODEL,
    });
    await keyless.stop();
  });
});
