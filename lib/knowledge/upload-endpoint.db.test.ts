import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Member } from "@/lib/auth";
import { createTestDatabase } from "@/lib/db/test-database";
import { createWorkspace, memberOf, postJson } from "./__fixtures__/knowledge-test-kit";
import { multipartRequest } from "./__fixtures__/multipart-request";
import { streamedUpload } from "./__fixtures__/streamed-upload";
import { knowledgeEndpoints, type KnowledgeEndpoints } from "./knowledge-endpoints";
import { createKnowledgeService, type KnowledgeService } from "./knowledge-service";

let database: Awaited<ReturnType<typeof createTestDatabase>>;
let service: KnowledgeService;
let endpoints: KnowledgeEndpoints;
let workspaceId: string;
let member: Member;

beforeAll(async () => {
  database = await createTestDatabase();
  service = createKnowledgeService({ db: database.prisma, envFor: async () => () => undefined });
  endpoints = knowledgeEndpoints(() => service);
  workspaceId = await createWorkspace(database, "Uploads");
  member = memberOf(workspaceId);
});

afterAll(async () => {
  await service?.stop();
  await database?.close();
});

async function newBase(name: string): Promise<string> {
  const created = await endpoints.createBase(postJson({ name }), {}, member);
  return ((await created.json()) as { id: string }).id;
}

function upload(files: Array<{ name: string; content: string }>, key?: string): Promise<Request> {
  const form = new FormData();
  for (const file of files) form.append("file", new Blob([file.content]), file.name);
  return multipartRequest(
    form,
    "http://localhost/api/knowledge-bases/x/documents",
    key === undefined ? {} : { "idempotency-key": key },
  );
}

const documentCount = async (baseId: string) =>
  (
    await database.prisma.$queryRawUnsafe<Array<{ count: number }>>(
      `SELECT count(*)::int AS count FROM knowledge_documents WHERE knowledge_base_id = $1`,
      baseId,
    )
  )[0]!.count;

describe("uploading documents", () => {
  it("refuses a 200 MB file with 413 naming the limit, without reading the body past it, and stores nothing", async () => {
    const baseId = await newBase("Large");
    const sent = streamedUpload({ name: "huge.txt", bytes: 200 * 1024 * 1024 });
    const response = await endpoints.uploadDocuments(sent.request, { id: baseId }, member);
    expect(response.status).toBe(413);
    expect(((await response.json()) as { error: { message: string } }).error.message).toBe(
      '"huge.txt" is over 10 MB; files may be at most 10 MB',
    );
    expect(sent.cancelled()).toBe(true);
    expect(sent.pulled()).toBeLessThan(11 * 1024 * 1024);
    expect(await documentCount(baseId)).toBe(0);
  });

  it("answers a retry with the same Idempotency-Key with the first answer, storing the files once", async () => {
    const baseId = await newBase("Retries");
    const first = await endpoints.uploadDocuments(
      await upload(
        [
          { name: "a.md", content: "# A\n\nAlpha." },
          { name: "b.txt", content: "Bravo." },
        ],
        "upload-1",
      ),
      { id: baseId },
      member,
    );
    expect(first.status).toBe(202);
    const body = await first.json();
    expect(body).toMatchObject({
      documents: [
        { name: "a.md", status: "pending" },
        { name: "b.txt", status: "pending" },
      ],
    });
    await service.drain();
    // Retried after the documents were processed, and even with other content: the first answer again.
    const retry = await endpoints.uploadDocuments(
      await upload([{ name: "c.txt", content: "Charlie." }], "upload-1"),
      { id: baseId },
      member,
    );
    expect(retry.status).toBe(202);
    expect(retry.headers.get("idempotent-replayed")).toBe("true");
    expect(await retry.json()).toEqual(body);
    expect(await documentCount(baseId)).toBe(2);
    const fresh = await endpoints.uploadDocuments(
      await upload([{ name: "c.txt", content: "Charlie." }], "upload-2"),
      { id: baseId },
      member,
    );
    expect(fresh.status).toBe(202);
    expect(fresh.headers.get("idempotent-replayed")).toBeNull();
    expect(await documentCount(baseId)).toBe(3);
  });

  it("stores one set of documents when two uploads with one key arrive together", async () => {
    const baseId = await newBase("Together");
    const [one, two] = await Promise.all(
      [1, 2].map(async () =>
        endpoints.uploadDocuments(
          await upload([{ name: "same.txt", content: "Same." }], "together"),
          { id: baseId },
          member,
        ),
      ),
    );
    expect([one!.status, two!.status]).toEqual([202, 202]);
    expect(await one!.json()).toEqual(await two!.json());
    expect(await documentCount(baseId)).toBe(1);
  });

  it("keeps keys apart per knowledge base, and a refused upload does not use its key", async () => {
    const [left, right] = [await newBase("Left"), await newBase("Right")];
    expect(
      (
        await endpoints.uploadDocuments(
          await upload([{ name: "l.txt", content: "Left." }], "shared"),
          { id: left },
          member,
        )
      ).status,
    ).toBe(202);
    expect(
      (
        await endpoints.uploadDocuments(
          await upload([{ name: "r.txt", content: "Right." }], "shared"),
          { id: right },
          member,
        )
      ).status,
    ).toBe(202);
    expect([await documentCount(left), await documentCount(right)]).toEqual([1, 1]);

    const refused = await endpoints.uploadDocuments(
      await upload([{ name: "tool.exe", content: "MZ" }], "after-refusal"),
      { id: left },
      member,
    );
    expect(refused.status).toBe(415);
    const accepted = await endpoints.uploadDocuments(
      await upload([{ name: "ok.txt", content: "Fine." }], "after-refusal"),
      { id: left },
      member,
    );
    expect(accepted.status).toBe(202);
    expect(
      ((await accepted.json()) as { documents: Array<{ name: string }> }).documents.map((document) => document.name),
    ).toEqual(["ok.txt"]);
  });

  it("refuses an Idempotency-Key that is empty, too long or not printable ASCII with 400", async () => {
    const baseId = await newBase("Keys");
    for (const key of ["", "k".repeat(256), "naïve"]) {
      const response = await endpoints.uploadDocuments(
        await upload([{ name: "a.txt", content: "a" }], key),
        { id: baseId },
        member,
      );
      expect(response.status, JSON.stringify(key)).toBe(400);
      expect(((await response.json()) as { error: { message: string } }).error.message).toMatch(/Idempotency-Key/);
    }
    expect(await documentCount(baseId)).toBe(0);
  });
});
