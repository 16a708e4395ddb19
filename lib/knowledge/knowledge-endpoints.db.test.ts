import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { knowledgeEndpoints, type KnowledgeEndpoints } from "./knowledge-endpoints";
import { createKnowledgeService, type KnowledgeService } from "./knowledge-service";
import type { Member } from "@/lib/auth";
import { createTestDatabase } from "@/lib/db/test-database";
import { createWorkspace, memberOf, postJson, upload } from "./__fixtures__/knowledge-test-kit";
import { multipartRequest } from "./__fixtures__/multipart-request";

let database: Awaited<ReturnType<typeof createTestDatabase>>;
let service: KnowledgeService;
let endpoints: KnowledgeEndpoints;
let workspaceId: string;
let member: Member;
let baseId: string;

beforeAll(async () => {
  database = await createTestDatabase();
  service = createKnowledgeService({ db: database.prisma, envFor: async () => () => undefined });
  endpoints = knowledgeEndpoints(() => service);
  workspaceId = await createWorkspace(database, "A");
  member = memberOf(workspaceId);
  const created = await endpoints.createBase(postJson({ name: "Uploads" }), {}, member);
  expect(created.status).toBe(201);
  baseId = ((await created.json()) as { id: string }).id;
});

afterAll(async () => {
  await service?.stop();
  await database?.close();
});

describe("knowledge base endpoints", () => {
  it("accepts several files at once, answers 202, and each document becomes ready", async () => {
    const response = await endpoints.uploadDocuments(
      await upload(
        [
          { name: "a.md", content: "# Alpha\n\nAlpha text." },
          { name: "b.txt", content: "Bravo text." },
        ],
        { tags: "team,policy" },
      ),
      { id: baseId },
      member,
    );
    expect(response.status).toBe(202);
    const body = (await response.json()) as { documents: Array<{ id: string; name: string; status: string }> };
    expect(body.documents.map(({ name, status }) => ({ name, status }))).toEqual([
      { name: "a.md", status: "pending" },
      { name: "b.txt", status: "pending" },
    ]);
    await service.drain();
    const listed = (await (
      await endpoints.listDocuments(new Request("http://localhost"), { id: baseId }, member)
    ).json()) as {
      documents: Array<{ name: string; status: string; chunkCount: number; error: null; metadata: { tags: string[] } }>;
    };
    const a = listed.documents.find((document) => document.name === "a.md")!;
    expect(a).toMatchObject({ status: "ready", chunkCount: 1, error: null, metadata: { tags: ["team", "policy"] } });
  });

  it("stores a path-like name as its base name only", async () => {
    const response = await endpoints.uploadDocuments(
      await upload([{ name: "../../etc/passwd.txt", content: "root:x:0:0" }]),
      { id: baseId },
      member,
    );
    expect(response.status).toBe(202);
    const body = (await response.json()) as { documents: Array<{ name: string }> };
    expect(body.documents[0]?.name).toBe("passwd.txt");
  });

  it("refuses a wrong type with 415, naming the file, and stores nothing from that upload", async () => {
    const before = (await service.listDocuments(workspaceId, baseId)).items.length;
    const png = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
    const response = await endpoints.uploadDocuments(
      await upload([
        { name: "ok.txt", content: "fine" },
        { name: "photo.txt", content: png },
      ]),
      { id: baseId },
      member,
    );
    expect(response.status).toBe(415);
    const body = (await response.json()) as { error: { code: string; message: string } };
    expect(body.error.code).toBe("unsupported_file_type");
    expect(body.error.message).toContain('"photo.txt" is named .txt but its content is a PNG image');
    const exe = await endpoints.uploadDocuments(
      await upload([{ name: "tool.exe", content: "MZ..." }]),
      { id: baseId },
      member,
    );
    expect(exe.status).toBe(415);
    expect((await service.listDocuments(workspaceId, baseId)).items.length).toBe(before);
  });

  it("refuses a file over 10 MB with 413", async () => {
    const big = new Uint8Array(10 * 1024 * 1024 + 1).fill(0x61);
    const response = await endpoints.uploadDocuments(
      await upload([{ name: "big.txt", content: big }]),
      { id: baseId },
      member,
    );
    expect(response.status).toBe(413);
    const body = (await response.json()) as { error: { code: string; message: string } };
    expect(body.error).toMatchObject({ code: "too_large" });
    expect(body.error.message).toMatch(/"big\.txt" is over 10 MB; files may be at most 10 MB/);
  });

  it("answers 400 without a file field and 404 for an unknown base", async () => {
    const form = new FormData();
    form.append("other", "x");
    const none = await endpoints.uploadDocuments(await multipartRequest(form), { id: baseId }, member);
    expect(none.status).toBe(400);
    const unknown = await endpoints.uploadDocuments(
      await upload([{ name: "a.txt", content: "a" }]),
      { id: "nope" },
      member,
    );
    expect(unknown.status).toBe(404);
  });

  it("searches with the contract's result fields and validates the body", async () => {
    const response = await endpoints.search(
      postJson({ query: "alpha", topK: 2 }),
      {
        id: baseId,
      },
      member,
    );
    expect(response.status).toBe(200);
    const body = (await response.json()) as { results: Array<Record<string, unknown>> };
    expect(body.results[0]).toMatchObject({
      documentName: "a.md",
      chunkIndex: 0,
      score: expect.any(Number),
      documentId: expect.any(String),
      content: expect.stringContaining("Alpha text"),
    });
    const bad = await endpoints.search(postJson({ query: "x", topK: 0 }), { id: baseId }, member);
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as { error: { details: Array<{ path: string }> } }).error.details[0]?.path).toBe("topK");
  });

  it("refuses an invalid knowledge base with 400 naming the field", async () => {
    const response = await endpoints.createBase(postJson({ name: "x", chunkSize: 100, chunkOverlap: 60 }), {}, member);
    expect(response.status).toBe(400);
    const { error } = (await response.json()) as {
      error: { code: string; message: string; details: Array<{ path: string }> };
    };
    expect(error).toMatchObject({ code: "invalid_request", details: [{ path: "chunkOverlap" }] });
    expect(error.message).toMatch(/chunkOverlap: must be less than half of chunkSize/);
  });

  it("lists knowledge bases with document and chunk counts", async () => {
    const body = (await (await endpoints.listBases(new Request("http://localhost"), {}, member)).json()) as {
      knowledgeBases: Array<{ id: string; name: string; documentCount: number; chunkCount: number }>;
    };
    expect(body.knowledgeBases[0]).toMatchObject({ id: baseId, name: "Uploads", documentCount: 3 });
  });
});
