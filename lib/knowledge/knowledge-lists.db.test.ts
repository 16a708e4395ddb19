import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ChunkView, KnowledgeBaseSummary, KnowledgeDocument } from "@/contract";
import type { Member } from "@/lib/auth";
import { createTestDatabase, type TestDatabase } from "@/lib/db/test-database";
import {
  expectPagingRefusals,
  expectTimeAndIdOrder,
  firstCursor,
  nextMillisecond,
  readPage,
  walkPages,
} from "@/lib/http/__fixtures__/paging-checks";
import { createWorkspace, memberOf } from "./__fixtures__/knowledge-test-kit";
import { knowledgeEndpoints, type KnowledgeEndpoints } from "./knowledge-endpoints";
import { createKnowledgeService, type KnowledgeService } from "./knowledge-service";
import * as store from "./knowledge-store";

// The lists read storage only: rows are stored as processing would leave them, and nothing is processed.
let database: TestDatabase;
let service: KnowledgeService;
let endpoints: KnowledgeEndpoints;
beforeAll(async () => {
  database = await createTestDatabase();
  service = createKnowledgeService({ db: database.prisma, envFor: async () => () => undefined });
  endpoints = knowledgeEndpoints(() => service);
});
afterAll(async () => {
  await service?.stop();
  await database?.close();
});

const settings = { embeddingModel: "offline/hash-embed", chunkSize: 200, chunkOverlap: 20 };

async function workspaceWithBases(count: number) {
  const workspaceId = await createWorkspace(database, "Knowledge");
  const baseIds: string[] = [];
  for (let index = 0; index < count; index++)
    baseIds.push((await store.createBase(database.prisma, workspaceId, { name: `Base ${index}`, ...settings })).id);
  return { workspaceId, baseIds, member: memberOf(workspaceId, "viewer") };
}

async function addDocuments(workspaceId: string, knowledgeBaseId: string, count: number): Promise<string[]> {
  const ids: string[] = [];
  for (let index = 0; index < count; index++) {
    const bytes = new TextEncoder().encode(`Document ${index}`);
    ids.push(
      (
        await store.insertDocument(database.prisma, workspaceId, {
          knowledgeBaseId,
          name: `doc-${index}.txt`,
          kind: "txt",
          bytes,
          metadata: {},
        })
      ).id,
    );
  }
  return ids;
}

async function addChunks(knowledgeBaseId: string, documentId: string, count: number): Promise<void> {
  await database.prisma.knowledgeChunk.createMany({
    data: Array.from({ length: count }, (_, chunkIndex) => ({
      knowledgeBaseId,
      documentId,
      chunkIndex,
      content: `Chunk ${chunkIndex}`,
      tokenCount: 2,
      embedding: [1, 0],
    })),
  });
}

const basesOf = (as: Member) => (query: string) =>
  endpoints.listBases(new Request(`http://localhost/api/knowledge-bases${query}`), {}, as);
const documentsOf = (id: string, as: Member) => (query: string) =>
  endpoints.listDocuments(new Request(`http://localhost/api/knowledge-bases/${id}/documents${query}`), { id }, as);
const chunksOf = (id: string, documentId: string, as: Member) => (query: string) =>
  endpoints.listChunks(
    new Request(`http://localhost/api/knowledge-bases/${id}/documents/${documentId}/chunks${query}`),
    { id, documentId },
    as,
  );

describe("GET /api/knowledge-bases, page by page", () => {
  it("walks every base exactly once, newest first, each with its own counts", async () => {
    const { workspaceId, baseIds, member } = await workspaceWithBases(7);
    await addDocuments(workspaceId, baseIds[0]!, 2);
    const { items, pages } = await walkPages<KnowledgeBaseSummary>(basesOf(member), "knowledgeBases", 3);
    expect(pages).toBe(3);
    expect(items.map((base) => base.id).sort()).toEqual([...baseIds].sort());
    expectTimeAndIdOrder(
      items,
      (base) => base.createdAt,
      (base) => base.id,
      "desc",
    );
    expect(items.map((base) => base.documentCount).sort()).toEqual([0, 0, 0, 0, 0, 0, 2]);
    expect(items.find((base) => base.id === baseIds[0])?.documentCount).toBe(2);
  });

  it("refuses a malformed or foreign cursor and a limit over the maximum", async () => {
    await expectPagingRefusals(basesOf((await workspaceWithBases(1)).member));
  });

  it("lists only the caller's workspace's bases whatever cursor it carries", async () => {
    const theirs = await workspaceWithBases(2);
    await nextMillisecond();
    const ours = await workspaceWithBases(2);
    const cursor = await firstCursor(basesOf(ours.member), 1);
    const page = await readPage(basesOf(theirs.member), { cursor });
    expect((page.knowledgeBases as KnowledgeBaseSummary[]).map((base) => base.id).sort()).toEqual(
      [...theirs.baseIds].sort(),
    );
  });
});

describe("GET /api/knowledge-bases/:id/documents, page by page", () => {
  it("walks every document exactly once, newest first", async () => {
    const { workspaceId, baseIds, member } = await workspaceWithBases(1);
    const documentIds = await addDocuments(workspaceId, baseIds[0]!, 8);
    const { items, pages } = await walkPages<KnowledgeDocument>(documentsOf(baseIds[0]!, member), "documents", 3);
    expect(pages).toBe(3);
    expect(items.map((document) => document.id).sort()).toEqual([...documentIds].sort());
    expectTimeAndIdOrder(
      items,
      (document) => document.createdAt,
      (document) => document.id,
      "desc",
    );
  });

  it("refuses a malformed or foreign cursor and a limit over the maximum", async () => {
    const { baseIds, member } = await workspaceWithBases(1);
    await expectPagingRefusals(documentsOf(baseIds[0]!, member));
  });

  it("lists only the documents of the caller's base whatever cursor it carries", async () => {
    const theirs = await workspaceWithBases(1);
    const theirDocuments = await addDocuments(theirs.workspaceId, theirs.baseIds[0]!, 2);
    await nextMillisecond();
    const ours = await workspaceWithBases(1);
    await addDocuments(ours.workspaceId, ours.baseIds[0]!, 2);
    const cursor = await firstCursor(documentsOf(ours.baseIds[0]!, ours.member), 1);
    const page = await readPage(documentsOf(theirs.baseIds[0]!, theirs.member), { cursor });
    expect((page.documents as KnowledgeDocument[]).map((document) => document.id).sort()).toEqual(
      [...theirDocuments].sort(),
    );
    expect((await documentsOf(ours.baseIds[0]!, theirs.member)(`?cursor=${cursor}`)).status).toBe(404);
  });
});

describe("GET /api/knowledge-bases/:id/documents/:documentId/chunks, page by page", () => {
  async function documentWithChunks(count: number) {
    const { workspaceId, baseIds, member } = await workspaceWithBases(1);
    const [documentId] = await addDocuments(workspaceId, baseIds[0]!, 1);
    await addChunks(baseIds[0]!, documentId!, count);
    return { baseId: baseIds[0]!, documentId: documentId!, member };
  }

  it("walks every chunk exactly once, in order", async () => {
    const { baseId, documentId, member } = await documentWithChunks(9);
    const { items, pages } = await walkPages<ChunkView>(chunksOf(baseId, documentId, member), "chunks", 4);
    expect(pages).toBe(3);
    expect(items.map((chunk) => chunk.chunkIndex)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8]);
  });

  it("refuses a malformed or foreign cursor, a limit over the maximum, and the offset it used to read", async () => {
    const { baseId, documentId, member } = await documentWithChunks(3);
    await expectPagingRefusals(chunksOf(baseId, documentId, member));
    const offset = await chunksOf(baseId, documentId, member)("?offset=2&limit=2");
    expect(offset.status).toBe(400);
    expect(((await offset.json()) as { error: { details: Array<{ path: string }> } }).error.details).toEqual([
      expect.objectContaining({ path: "offset" }),
    ]);
    expect((await readPage(chunksOf(baseId, documentId, member), { offset: "0", limit: "2" })).chunks).toHaveLength(2);
  });

  it("lists only the chunks of the caller's document whatever cursor it carries", async () => {
    const ours = await documentWithChunks(3);
    const theirs = await documentWithChunks(3);
    const cursor = await firstCursor(chunksOf(ours.baseId, ours.documentId, ours.member), 1);
    const page = await readPage(chunksOf(theirs.baseId, theirs.documentId, theirs.member), { cursor });
    expect((page.chunks as ChunkView[]).map((chunk) => chunk.content)).toEqual(["Chunk 1", "Chunk 2"]);
    expect((await chunksOf(ours.baseId, ours.documentId, theirs.member)(`?cursor=${cursor}`)).status).toBe(404);
  });
});
