import { readdirSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createPrisma, type Database } from "@/lib/db/client";
import { migrateDatabase } from "@/lib/db/migrate/apply-migrations.mjs";
import type { TestDatabase } from "@/lib/db/test-database";
import { errorResponse } from "@/lib/http/errors";
import { mountSmallDisk, type SmallDisk } from "@/lib/system/__fixtures__/small-disk";
import { createWorkspace, memberOf, postJson, upload } from "./__fixtures__/knowledge-test-kit";
import { multipartRequest } from "./__fixtures__/multipart-request";
import { knowledgeEndpoints } from "./knowledge-endpoints";
import { createKnowledgeService, type KnowledgeService } from "./knowledge-service";
import { readUploadForm } from "./read-upload";
import { UPLOAD_LIMITS } from "./knowledge-settings";

const MB = 1024 * 1024;
const dataDisk = mountSmallDisk(100);
const tempDisk = mountSmallDisk(8);
const skip = [dataDisk, tempDisk].find((disk): disk is string => typeof disk === "string");
if (skip) console.warn(`[upload-disk.test] skipped: ${skip}`);

const noise = (bytes: number) => {
  const content = Buffer.alloc(bytes);
  for (let index = 0; index < bytes; index++) content[index] = 97 + ((index * 7919) % 26);
  return content;
};

let data: SmallDisk;
let temp: SmallDisk;
let database: Database;
let databaseDir: string;
const services: KnowledgeService[] = [];
const reserveBefore = process.env.TRELLIS_DISK_RESERVE_MB;

beforeAll(async () => {
  if (skip) return;
  data = dataDisk as SmallDisk;
  temp = tempDisk as SmallDisk;
  process.env.TRELLIS_DISK_RESERVE_MB = "8";
  databaseDir = path.join(data.dir, "pglite");
  await migrateDatabase({ kind: "embedded", dataDir: data.dir, databaseDir });
  database = createPrisma({ kind: "embedded", databaseDir });
  await database.ready;
}, 120_000);

afterAll(async () => {
  if (skip) return;
  for (const service of services) await service.stop();
  await database?.close();
  data.unmount();
  temp.unmount();
  if (reserveBefore === undefined) delete process.env.TRELLIS_DISK_RESERVE_MB;
  else process.env.TRELLIS_DISK_RESERVE_MB = reserveBefore;
}, 60_000);

function endpointsWith(embeddedDatabaseDir: string | undefined) {
  const service = createKnowledgeService({
    db: database.prisma,
    envFor: async () => () => undefined,
    embeddedDatabaseDir,
  });
  services.push(service);
  return knowledgeEndpoints(() => service);
}

async function setUp(embeddedDatabaseDir: string | undefined) {
  const endpoints = endpointsWith(embeddedDatabaseDir);
  const member = memberOf(await createWorkspace(database as unknown as TestDatabase, "Disk"));
  const created = await endpoints.createBase(postJson({ name: "Files" }), {}, member);
  const baseId = ((await created.json()) as { id: string }).id;
  const documents = async () =>
    (
      await database.prisma.$queryRawUnsafe<Array<{ n: number }>>(
        `SELECT count(*)::int AS n FROM knowledge_documents WHERE knowledge_base_id = $1`,
        baseId,
      )
    )[0]!.n;
  const send = async (bytes: number) =>
    endpoints.uploadDocuments(await upload([{ name: "notes.txt", content: noise(bytes) }]), { id: baseId }, member);
  return { documents, send };
}

const errorOf = async (response: Response) =>
  ((await response.json()) as { error: { code: string; message: string } }).error;

describe.skipIf(skip !== undefined)("uploads on a nearly full disk", () => {
  it("answers 507 naming the database's folder and the space needed, stores nothing, and takes the next upload once space is freed", async () => {
    const { documents, send } = await setUp(databaseDir);
    data.fill(20 * MB);
    const refused = await send(5 * MB);
    expect(refused.status).toBe(507);
    const error = await errorOf(refused);
    expect(error.code).toBe("insufficient_storage");
    expect(error.message).toContain(`the disk holding ${databaseDir} has`);
    expect(error.message).toContain("this needs 23 MB");
    expect(await documents()).toBe(0);

    data.free();
    const accepted = await send(5 * MB);
    expect(accepted.status).toBe(202);
    expect(await documents()).toBe(1);
  }, 60_000);

  it("answers 507 from the embedded database's own refusal when the upload store is not told its folder", async () => {
    const { documents, send } = await setUp(undefined);
    data.fill(20 * MB);
    const refused = await send(5 * MB);
    expect(refused.status).toBe(507);
    expect((await errorOf(refused)).message).toContain(`the disk holding ${databaseDir} has`);
    expect(await documents()).toBe(0);
    data.free();
    expect((await send(5 * MB)).status).toBe(202);
  }, 60_000);

  it("answers 507 naming a full temporary folder, and leaves no partial file there", async () => {
    temp.fill(512 * 1024);
    const form = new FormData();
    form.append("file", new Blob([noise(2 * MB)]), "big.txt");
    const response = await readUploadForm(
      await multipartRequest(form, "http://localhost/upload"),
      UPLOAD_LIMITS,
      temp.dir,
    ).then(() => new Response(null, { status: 202 }), errorResponse);
    expect(response.status).toBe(507);
    const error = await errorOf(response);
    expect(error.code).toBe("insufficient_storage");
    expect(error.message).toContain(`the disk holding ${temp.dir} has`);
    expect(readdirSync(temp.dir)).toEqual(["filler"]);
    temp.free();
  }, 30_000);
});
