import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parse } from "csv-parse/sync";
import type { AuditEntry, AuditPage } from "@/contract";
import { answerApiRequest } from "@/lib/api";
import { createTestDatabase, type TestDatabase } from "@/lib/db/test-database";
import { walkPages } from "@/lib/http/__fixtures__/paging-checks";
import { testMember } from "@/lib/http/test-members";
import { auditEndpoints, type AuditEndpoints } from "./audit-endpoints";
import { recordAudit, type AuditBy } from "./audit-log";
import { createAuditRepository } from "./audit-repository";
import { sweepAuditLog } from "./audit-retention";

/** The audit log's reading API, its export, its append-only table and its retention, over a test database. */

let database: TestDatabase;
let http: AuditEndpoints;
let workspaceId: string;
let otherWorkspaceId: string;
const admin = () => testMember(workspaceId, "admin");

const ada: AuditBy = { actor: { kind: "user", userId: "user-ada", name: "Ada" }, address: "192.0.2.1" };
const adaKey: AuditBy = {
  actor: { kind: "apiKey", apiKeyId: "key-ada", userId: "user-ada", name: "Ada" },
  address: "192.0.2.2",
};
const bo: AuditBy = { actor: { kind: "user", userId: "user-bo", name: "Bo" }, address: null };

const DAY_MS = 86_400_000;
const NOW = Date.now();

beforeAll(async () => {
  database = await createTestDatabase();
  workspaceId = await database.createWorkspace();
  otherWorkspaceId = await database.createWorkspace();
  http = auditEndpoints(() => createAuditRepository(database.prisma));
  const { prisma } = database;
  await recordAudit(prisma, workspaceId, ada, {
    action: "secret.set",
    object: { type: "secret", id: "OPENAI_API_KEY", name: "OPENAI_API_KEY" },
  });
  await recordAudit(prisma, workspaceId, adaKey, {
    action: "workflow.create",
    object: { type: "workflow", id: "wf-1", name: '=HYPERLINK("http://evil.example","Click")' },
    summary: { after: { blocks: 2, note: 'a "quoted", multi\nline note' } },
  });
  await recordAudit(prisma, workspaceId, bo, {
    action: "member.role",
    object: { type: "member", id: "user-cy", name: "Cy" },
    summary: { before: { role: "viewer" }, after: { role: "editor" } },
  });
  await recordAudit(prisma, otherWorkspaceId, ada, {
    action: "secret.delete",
    object: { type: "secret", id: "ELSEWHERE", name: "ELSEWHERE" },
  });
  // Older entries, written as the clock stood then.
  for (const daysAgo of [400, 30]) {
    await prisma.auditEntry.create({
      data: {
        workspaceId,
        at: new Date(NOW - daysAgo * DAY_MS),
        actorKind: "user",
        actorId: "user-bo",
        actorName: "Bo",
        actorUserId: "user-bo",
        action: "schedule.delete",
        objectType: "schedule",
        objectId: `schedule-${daysAgo}`,
        summary: {},
      },
    });
  }
});
afterAll(() => database?.close());

const list = (query = "", as = admin()) => http.list(new Request(`http://localhost/api/audit${query}`), {}, as);
async function entries(query = ""): Promise<AuditEntry[]> {
  const response = await list(query);
  expect(response.status, await response.clone().text()).toBe(200);
  return ((await response.json()) as AuditPage).entries;
}

describe("GET /api/audit", () => {
  it("answers the workspace's entries newest first, as the contract shapes them", async () => {
    const found = await entries();
    expect(found.map((entry) => entry.action)).toEqual([
      "member.role",
      "workflow.create",
      "secret.set",
      "schedule.delete",
      "schedule.delete",
    ]);
    expect(found[1]).toMatchObject({
      actor: { kind: "apiKey", id: "key-ada", name: "Ada" },
      address: "192.0.2.2",
      object: { type: "workflow", id: "wf-1" },
    });
    expect(found[0]).toMatchObject({
      actor: { kind: "user", id: "user-bo", name: "Bo" },
      address: null,
      summary: { before: { role: "viewer" }, after: { role: "editor" } },
    });
    expect(JSON.stringify(found)).not.toContain("ELSEWHERE");
  });

  it("filters by actor (a user's id finds their keys' entries too), action, object and dates", async () => {
    expect((await entries("?actor=user-ada")).map((entry) => entry.actor.id)).toEqual(["key-ada", "user-ada"]);
    expect((await entries("?actor=key-ada")).map((entry) => entry.action)).toEqual(["workflow.create"]);
    expect((await entries("?action=secret.set")).map((entry) => entry.object.id)).toEqual(["OPENAI_API_KEY"]);
    expect((await entries("?objectType=member&objectId=user-cy")).map((entry) => entry.action)).toEqual([
      "member.role",
    ]);
    const from = new Date(NOW - 60 * DAY_MS).toISOString();
    const to = new Date(NOW - DAY_MS).toISOString();
    expect((await entries(`?from=${from}&to=${to}`)).map((entry) => entry.object.id)).toEqual(["schedule-30"]);
    expect(await entries("?action=")).toHaveLength(5);
  });

  it("pages by cursor", async () => {
    const { items } = await walkPages<AuditEntry>((query) => list(query), "entries", 2);
    expect(items.map((entry) => entry.id)).toEqual((await entries()).map((entry) => entry.id));
  });

  it.each([
    ["?who=ada", "who", "is not a filter of the audit log"],
    ["?action=secret.stolen", "action", "must be one of"],
    ["?from=yesterday", "from", "must be an ISO date and time"],
    ["?from=2026-02-01T00:00:00Z&to=2026-01-01T00:00:00Z", "to", "must be after from"],
    ["?actor=a&actor=b", "actor", "is given more than once"],
    ["?limit=500", "limit", "must be a whole number"],
  ])("refuses %s with 400 naming %s", async (query, path, message) => {
    const response = await list(query);
    expect(response.status).toBe(400);
    const { error } = (await response.json()) as { error: { code: string; message: string; details: unknown[] } };
    expect(error.code).toBe("invalid_request");
    expect(error.message).toContain(path);
    expect(error.details).toContainEqual({ path, message: expect.stringContaining(message) });
  });

  it("is for admins and owners only", async () => {
    for (const role of ["editor", "viewer"] as const) {
      const response = await list("", testMember(workspaceId, role));
      expect(response.status).toBe(403);
    }
    expect((await list("", testMember(workspaceId, "owner"))).status).toBe(200);
  });

  it("has no operation that edits or deletes an entry", async () => {
    for (const method of ["DELETE", "PUT", "PATCH", "POST"]) {
      const response = await answerApiRequest(new Request("http://localhost/api/audit", { method }));
      expect(response.status).toBe(405);
      expect(response.headers.get("allow")).toBe("GET, HEAD, OPTIONS");
    }
  });
});

describe("GET /api/audit/export", () => {
  const exported = (query: string) =>
    http.export(new Request(`http://localhost/api/audit/export${query}`), {}, admin());

  it("writes CSV oldest first, one column per field, with formulas defused and quoting per RFC 4180", async () => {
    const response = await exported("?format=csv");
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("text/csv; charset=utf-8");
    expect(response.headers.get("content-disposition")).toMatch(
      /^attachment; filename="audit-\d{4}-\d{2}-\d{2}\.csv"$/,
    );
    const rows = parse(await response.text(), { columns: true }) as Array<Record<string, string>>;
    expect(rows.map((row) => row.action)).toEqual([
      "schedule.delete",
      "schedule.delete",
      "secret.set",
      "workflow.create",
      "member.role",
    ]);
    const created = rows[3]!;
    expect(created).toMatchObject({ actorKind: "apiKey", actorId: "key-ada", address: "192.0.2.2", objectId: "wf-1" });
    expect(created.objectName).toBe('\'=HYPERLINK("http://evil.example","Click")');
    expect(JSON.parse(created.summary!)).toEqual({ after: { blocks: 2, note: 'a "quoted", multi\nline note' } });
  });

  it("writes JSON lines, each entry as the API answers it, with the same filters", async () => {
    const response = await exported("?format=jsonl&actor=user-ada");
    expect(response.headers.get("content-type")).toBe("application/x-ndjson; charset=utf-8");
    const lines = (await response.text()).trimEnd().split("\n");
    const parsed = lines.map((line) => JSON.parse(line) as AuditEntry);
    expect(parsed.map((entry) => entry.action)).toEqual(["secret.set", "workflow.create"]);
    expect(parsed).toEqual((await entries("?actor=user-ada")).reverse());
  });

  it("refuses an unknown format or filter with 400 naming it", async () => {
    for (const [query, path] of [
      ["?format=xlsx", "format"],
      ["?format=csv&limit=5", "limit"],
    ] as const) {
      const response = await exported(query);
      expect(response.status).toBe(400);
      expect(((await response.json()) as { error: { details: Array<{ path: string }> } }).error.details[0]!.path).toBe(
        path,
      );
    }
  });
});

describe("the table", () => {
  it("refuses to update, delete or truncate an entry, whatever code asks", async () => {
    const { prisma } = database;
    const [entry] = await prisma.auditEntry.findMany({ where: { workspaceId }, take: 1 });
    await expect(
      prisma.auditEntry.update({ where: { id: entry!.id }, data: { actorName: "Mallory" } }),
    ).rejects.toThrow(/append-only/);
    await expect(prisma.auditEntry.delete({ where: { id: entry!.id } })).rejects.toThrow(/append-only/);
    await expect(prisma.$executeRawUnsafe("TRUNCATE audit_entries")).rejects.toThrow(/append-only/);
    // Declaring oneself the sweep does not reach recent entries.
    await expect(
      prisma.$transaction(async (tx) => {
        await tx.$executeRawUnsafe(
          `SELECT set_config('trellis.audit_retention', 'sweep', true), set_config('trellis.audit_cutoff', '${new Date(NOW + DAY_MS).toISOString()}', true)`,
        );
        await tx.$executeRawUnsafe(`DELETE FROM audit_entries WHERE at > now() - interval '1 day'`);
      }),
    ).rejects.toThrow(/append-only/);
    expect(await prisma.auditEntry.count({ where: { workspaceId } })).toBe(5);
  });

  it("lets the retention sweep delete what is older than the retention, and nothing else", async () => {
    const removed = await sweepAuditLog(database.prisma, 365, new Date(NOW));
    expect(removed).toBe(1);
    const left = await entries();
    expect(left.map((entry) => entry.object.id)).not.toContain("schedule-400");
    expect(left.map((entry) => entry.object.id)).toContain("schedule-30");
    expect(await sweepAuditLog(database.prisma, 365, new Date(NOW))).toBe(0);
  });

  it("refuses a summary that would hold a secret, storing nothing", async () => {
    const before = await database.prisma.auditEntry.count();
    await expect(
      recordAudit(database.prisma, workspaceId, ada, {
        action: "secret.set",
        object: { type: "secret", id: "X", name: "X" },
        summary: { after: { value: "sk-live-oops" } },
      }),
    ).rejects.toThrow(/"value" field/);
    expect(await database.prisma.auditEntry.count()).toBe(before);
  });
});
