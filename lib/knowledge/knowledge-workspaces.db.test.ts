import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Member } from "@/lib/auth";
import { createTestDatabase, type TestDatabase } from "@/lib/db/test-database";
import { createWorkspace, del, get, memberOf, postJson, upload } from "./__fixtures__/knowledge-test-kit";
import { knowledgeEndpoints, type KnowledgeEndpoints } from "./knowledge-endpoints";
import { createKnowledgeService, type KnowledgeService } from "./knowledge-service";

/** The knowledge endpoints called by members of one workspace never reach another's bases or documents. */

let database: TestDatabase;
let service: KnowledgeService;
let endpoints: KnowledgeEndpoints;
let a: { workspaceId: string; member: Member; baseId: string; documentId: string };
let b: { workspaceId: string; member: Member; baseId: string; documentId: string };

type ErrorBody = { error: { code: string; message: string } };

async function setUpWorkspace(name: string, text: string) {
  const workspaceId = await createWorkspace(database, name);
  const member = memberOf(workspaceId);
  const created = await endpoints.createBase(postJson({ name: `${name}'s base` }), {}, member);
  const baseId = ((await created.json()) as { id: string }).id;
  const uploaded = await endpoints.uploadDocuments(
    await upload([{ name: `${name}.md`, content: text }]),
    { id: baseId },
    member,
  );
  const documentId = ((await uploaded.json()) as { documents: Array<{ id: string }> }).documents[0]!.id;
  return { workspaceId, member, baseId, documentId };
}

beforeAll(async () => {
  database = await createTestDatabase();
  service = createKnowledgeService({ db: database.prisma, envFor: async () => () => undefined });
  endpoints = knowledgeEndpoints(() => service);
  a = await setUpWorkspace("A", "# Alpha\n\nThe alpha handbook about refunds.");
  b = await setUpWorkspace("B", "# Bravo\n\nThe bravo handbook about refunds.");
  await service.drain();
});

afterAll(async () => {
  await service?.stop();
  await database?.close();
});

/** Every endpoint over a base id, called by `member`; each answers with its response. */
function callsOnBase(member: Member, baseId: string, documentId: string): Record<string, () => Promise<Response>> {
  return {
    getBase: () => endpoints.getBase(get(), { id: baseId }, member),
    listDocuments: () => endpoints.listDocuments(get(), { id: baseId }, member),
    uploadDocuments: async () =>
      endpoints.uploadDocuments(await upload([{ name: "x.md", content: "x" }]), { id: baseId }, member),
    getDocument: () => endpoints.getDocument(get(), { id: baseId, documentId }, member),
    listChunks: () => endpoints.listChunks(get(), { id: baseId, documentId }, member),
    search: () => endpoints.search(postJson({ query: "refunds" }), { id: baseId }, member),
    deleteDocument: () => endpoints.deleteDocument(del(), { id: baseId, documentId }, member),
    deleteBase: () => endpoints.deleteBase(del(), { id: baseId }, member),
  };
}

describe("knowledge endpoints across workspaces", () => {
  it("answers 404 for a base of another workspace through every endpoint, saying no more than for an unknown id", async () => {
    const unknown = callsOnBase(a.member, "no-such-base", "no-such-document");
    for (const [name, call] of Object.entries(callsOnBase(a.member, b.baseId, b.documentId))) {
      const response = await call();
      expect(response.status, name).toBe(404);
      const body = (await response.json()) as ErrorBody;
      const missing = (await (await unknown[name]!()).json()) as ErrorBody;
      // The same answer as for an id that exists nowhere, once the ids are blanked out.
      const blank = (text: string) =>
        text
          .replaceAll(b.baseId, "ID")
          .replaceAll(b.documentId, "DOC")
          .replaceAll("no-such-base", "ID")
          .replaceAll("no-such-document", "DOC");
      expect({ code: body.error.code, message: blank(body.error.message) }, name).toEqual({
        code: missing.error.code,
        message: blank(missing.error.message),
      });
      expect(body.error.code, name).toBe("not_found");
    }
    // Nothing of B was changed by A's calls.
    expect((await service.listDocuments(b.workspaceId, b.baseId)).items).toEqual([
      expect.objectContaining({ id: b.documentId, status: "ready" }),
    ]);
  });

  it("answers 404 for another workspace's document under one's own base id", async () => {
    const calls = callsOnBase(a.member, a.baseId, b.documentId);
    for (const name of ["getDocument", "listChunks", "deleteDocument"])
      expect((await calls[name]!()).status, name).toBe(404);
    expect((await service.getDocument(b.workspaceId, b.baseId, b.documentId)).status).toBe("ready");
  });

  it("lists only the calling member's workspace's bases", async () => {
    for (const side of [a, b]) {
      const body = (await (await endpoints.listBases(get(), {}, side.member)).json()) as {
        knowledgeBases: Array<{ id: string }>;
      };
      expect(body.knowledgeBases.map((base) => base.id)).toEqual([side.baseId]);
    }
  });

  it("searches only the workspace's own chunks", async () => {
    const response = await endpoints.search(
      postJson({ query: "handbook refunds", topK: 10 }),
      { id: a.baseId },
      a.member,
    );
    expect(response.status).toBe(200);
    const body = (await response.json()) as { results: Array<{ documentId: string; documentName: string }> };
    expect(body.results.map((result) => result.documentName)).toEqual(["A.md"]);
  });

  it("lets a viewer list, read and search, and refuses their changes with 403", async () => {
    const viewer = memberOf(a.workspaceId, "viewer");
    expect((await endpoints.listBases(get(), {}, viewer)).status).toBe(200);
    expect((await endpoints.getBase(get(), { id: a.baseId }, viewer)).status).toBe(200);
    expect((await endpoints.listDocuments(get(), { id: a.baseId }, viewer)).status).toBe(200);
    expect((await endpoints.search(postJson({ query: "alpha" }), { id: a.baseId }, viewer)).status).toBe(200);

    const refused = {
      createBase: await endpoints.createBase(postJson({ name: "By a viewer" }), {}, viewer),
      uploadDocuments: await endpoints.uploadDocuments(
        await upload([{ name: "v.md", content: "v" }]),
        { id: a.baseId },
        viewer,
      ),
      deleteDocument: await endpoints.deleteDocument(del(), { id: a.baseId, documentId: a.documentId }, viewer),
      deleteBase: await endpoints.deleteBase(del(), { id: a.baseId }, viewer),
    };
    for (const [name, response] of Object.entries(refused)) {
      expect(response.status, name).toBe(403);
      expect(((await response.json()) as ErrorBody).error.code, name).toBe("forbidden");
    }
    expect(
      (await service.listBases(a.workspaceId)).items.map((base) => ({
        id: base.id,
        documentCount: base.documentCount,
      })),
    ).toEqual([{ id: a.baseId, documentCount: 1 }]);
  });

  it("lets an editor of the owning workspace delete what the other workspace could not", async () => {
    const calls = callsOnBase(b.member, b.baseId, b.documentId);
    expect((await calls.deleteDocument!()).status).toBe(204);
    expect((await calls.deleteBase!()).status).toBe(204);
    expect((await service.listBases(b.workspaceId)).items).toEqual([]);
    expect((await service.listBases(a.workspaceId)).items.map((base) => base.id)).toEqual([a.baseId]);
  });
});
