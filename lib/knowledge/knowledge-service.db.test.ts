import { readdirSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createKnowledgeService, type KnowledgeService } from "./knowledge-service";
import { createTestDatabase } from "@/lib/db/test-database";
import { createWorkspace } from "./__fixtures__/knowledge-test-kit";
import { insertDocument, listChunks, listDocuments } from "./knowledge-store";

const CORPUS = fileURLToPath(new URL("../../knowledge/__fixtures__/corpus/", import.meta.url));
const questions = JSON.parse(readFileSync(`${CORPUS}questions.json`, "utf8")) as Array<{
  question: string;
  document: string;
}>;

let database: Awaited<ReturnType<typeof createTestDatabase>>;
let service: KnowledgeService;
let workspaceId: string;
let baseId: string;

beforeAll(async () => {
  database = await createTestDatabase();
  service = createKnowledgeService({ db: database.prisma, envFor: async () => () => undefined });
  workspaceId = await createWorkspace(database, "Policies");
  const base = await service.createBase(workspaceId, { name: "Company policies" });
  baseId = base.id;
  const files = readdirSync(CORPUS)
    .filter((name) => name !== "questions.json")
    .map((name) => ({ name, bytes: new Uint8Array(readFileSync(CORPUS + name)) }));
  await service.uploadDocuments(workspaceId, baseId, files, { tags: ["corpus"] });
  await service.drain();
});

afterAll(async () => {
  await service?.stop();
  await database?.close();
});

describe("knowledge service on the embedded database", () => {
  it("processes every corpus document to ready with chunks and a zero embedding cost", async () => {
    const documents = (await service.listDocuments(workspaceId, baseId)).items;
    expect(documents).toHaveLength(31);
    for (const document of documents) {
      expect({ name: document.name, status: document.status, error: document.error }).toEqual({
        name: document.name,
        status: "ready",
        error: null,
      });
      expect(document.chunkCount).toBeGreaterThan(0);
      expect(document.embedding.cost).toBe(0);
    }
    const [summary] = (await service.listBases(workspaceId)).items;
    expect(summary).toMatchObject({
      id: baseId,
      name: "Company policies",
      documentCount: 31,
      embeddingModel: "offline/hash-embed",
      embeddingDimensions: 256,
    });
    expect(summary!.chunkCount).toBeGreaterThanOrEqual(31);
  });

  it("hybrid search finds the right document in the top 3 for at least 90% of keyword-style questions", async () => {
    const misses: string[] = [];
    for (const { question, document } of questions) {
      const { results } = await service.search(workspaceId, {
        knowledgeBaseIds: [baseId],
        query: question,
        topK: 3,
        mode: "hybrid",
      });
      if (!results.some((result) => result.documentName === document))
        misses.push(`${question} -> ${results.map((result) => result.documentName).join(", ")}`);
    }
    const hitRate = 1 - misses.length / questions.length;
    console.info(
      `hybrid top-3 hit rate: ${questions.length - misses.length}/${questions.length}${misses.length ? `; misses: ${misses.join(" | ")}` : ""}`,
    );
    expect(misses.length, `misses:\n${misses.join("\n")}`).toBeLessThanOrEqual(Math.floor(questions.length * 0.1));
    expect(hitRate).toBeGreaterThanOrEqual(0.9);
  });

  it("answers the seed's question with the refund policy first, in every mode", async () => {
    for (const mode of ["hybrid", "keyword", "vector"] as const) {
      const response = await service.search(workspaceId, {
        knowledgeBaseIds: [baseId],
        query: "What is our refund policy?",
        topK: 3,
        mode,
      });
      expect(response.results[0]?.documentName, mode).toBe("refund-policy.md");
      expect(response.results[0]?.content).toContain("full refund within 30 days");
      expect(response.results[0]!.score).toBeGreaterThan(0);
    }
  });

  it("applies topK, minScore and metadata filters", async () => {
    const three = await service.search(workspaceId, { knowledgeBaseIds: [baseId], query: "policy", topK: 3 });
    expect(three.results).toHaveLength(3);
    const strict = await service.search(workspaceId, {
      knowledgeBaseIds: [baseId],
      query: "refund policy",
      mode: "vector",
      minScore: 0.99,
    });
    expect(strict.results).toHaveLength(0);
    const tagged = await service.search(workspaceId, {
      knowledgeBaseIds: [baseId],
      query: "refund",
      filters: { tags: ["corpus"] },
    });
    expect(tagged.results.length).toBeGreaterThan(0);
    const other = await service.search(workspaceId, {
      knowledgeBaseIds: [baseId],
      query: "refund",
      filters: { tags: ["nope"] },
    });
    expect(other.results).toHaveLength(0);
  });

  it("returns chunks of a document in order, and deleting a document removes it from search", async () => {
    const documents = (await service.listDocuments(workspaceId, baseId)).items;
    const refund = documents.find((document) => document.name === "refund-policy.md")!;
    const chunks = (await service.listChunks(workspaceId, baseId, refund.id)).items;
    expect(chunks[0]).toMatchObject({ chunkIndex: 0, metadata: { headings: ["Refund policy"] } });
    await service.deleteDocument(workspaceId, baseId, refund.id);
    const after = await service.search(workspaceId, {
      knowledgeBaseIds: [baseId],
      query: "What is our refund policy?",
      topK: 5,
    });
    expect(after.results.some((result) => result.documentName === "refund-policy.md")).toBe(false);
  });

  it("names unknown knowledge bases and bad requests", async () => {
    await expect(service.search(workspaceId, { knowledgeBaseIds: ["missing"], query: "x" })).rejects.toThrow(
      /Knowledge base "missing" does not exist/,
    );
    await expect(service.search(workspaceId, { knowledgeBaseIds: [baseId], query: "  " })).rejects.toThrow(
      /query is empty/,
    );
    await expect(
      service.createBase(workspaceId, { name: "x", embeddingModel: "openai/text-embedding-3-small" }),
    ).rejects.toThrow(/OPENAI_API_KEY/);
    await expect(service.createBase(workspaceId, { name: "x", chunkSize: 100, chunkOverlap: 60 })).rejects.toThrow(
      /chunkOverlap: must be less than half/,
    );
  });
});

describe("knowledge service across workspaces", () => {
  let otherWorkspaceId: string;
  let otherBaseId: string;
  let otherDocumentId: string;

  beforeAll(async () => {
    otherWorkspaceId = await createWorkspace(database, "Other");
    otherBaseId = (await service.createBase(otherWorkspaceId, { name: "Other's notes" })).id;
    const [document] = await service.uploadDocuments(otherWorkspaceId, otherBaseId, [
      { name: "secret.md", bytes: new TextEncoder().encode("# Secret\n\nThe refund policy of the other workspace.") },
    ]);
    otherDocumentId = document!.id;
    await service.drain();
  });

  it("lists only the workspace's own bases", async () => {
    expect((await service.listBases(workspaceId)).items.map((base) => base.id)).toEqual([baseId]);
    expect((await service.listBases(otherWorkspaceId)).items.map((base) => base.id)).toEqual([otherBaseId]);
  });

  it("answers a base of another workspace exactly as an unknown id, for every operation", async () => {
    const unknown = /^Knowledge base "[^"]+" does not exist$/;
    await expect(service.getBase(workspaceId, otherBaseId)).rejects.toThrow(
      `Knowledge base "${otherBaseId}" does not exist`,
    );
    await expect(service.getBase(workspaceId, "missing")).rejects.toThrow(unknown);
    await expect(service.deleteBase(workspaceId, otherBaseId)).rejects.toMatchObject({
      code: "not_found",
      message: `Knowledge base "${otherBaseId}" does not exist`,
    });
    await expect(service.listDocuments(workspaceId, otherBaseId)).rejects.toMatchObject({ code: "not_found" });
    await expect(
      service.uploadDocuments(workspaceId, otherBaseId, [{ name: "x.md", bytes: new TextEncoder().encode("x") }]),
    ).rejects.toMatchObject({
      code: "not_found",
    });
    await expect(service.getDocument(workspaceId, otherBaseId, otherDocumentId)).rejects.toMatchObject({
      code: "not_found",
    });
    await expect(service.listChunks(workspaceId, otherBaseId, otherDocumentId)).rejects.toMatchObject({
      code: "not_found",
    });
    await expect(service.deleteDocument(workspaceId, otherBaseId, otherDocumentId)).rejects.toMatchObject({
      code: "not_found",
    });
    // Nothing of the other workspace was touched.
    expect(await service.getDocument(otherWorkspaceId, otherBaseId, otherDocumentId)).toMatchObject({
      status: "ready",
    });
  });

  it("does not reach another base's document through one's own base id", async () => {
    await expect(service.getDocument(workspaceId, baseId, otherDocumentId)).rejects.toMatchObject({
      code: "not_found",
    });
    await expect(service.listChunks(workspaceId, baseId, otherDocumentId)).rejects.toMatchObject({ code: "not_found" });
    await expect(service.deleteDocument(workspaceId, baseId, otherDocumentId)).rejects.toMatchObject({
      code: "not_found",
    });
    expect((await service.listChunks(otherWorkspaceId, otherBaseId, otherDocumentId)).items.length).toBeGreaterThan(0);
  });

  it("refuses to search a base of another workspace, even next to one's own, with the unknown-id error", async () => {
    for (const ids of [[otherBaseId], [baseId, otherBaseId]]) {
      await expect(
        service.search(workspaceId, { knowledgeBaseIds: ids, query: "refund policy" }),
      ).rejects.toMatchObject({
        code: "not_found",
        message: `Knowledge base "${otherBaseId}" does not exist`,
      });
    }
    const own = await service.search(workspaceId, {
      knowledgeBaseIds: [baseId],
      query: "refund policy other workspace",
      topK: 20,
    });
    expect(own.results.some((result) => result.documentName === "secret.md")).toBe(false);
  });

  it("keeps the store's document functions inside the workspace too", async () => {
    const bytes = new TextEncoder().encode("x");
    await expect(
      insertDocument(database.prisma, workspaceId, {
        knowledgeBaseId: otherBaseId,
        name: "x.md",
        kind: "md",
        bytes,
        metadata: {},
      }),
    ).rejects.toMatchObject({
      code: "not_found",
    });
    expect((await listDocuments(database.prisma, workspaceId, otherBaseId)).items).toEqual([]);
    expect((await listChunks(database.prisma, workspaceId, otherBaseId, otherDocumentId, { limit: 10 })).items).toEqual(
      [],
    );
  });
});
