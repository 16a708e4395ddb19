import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AUDIT_ACTIONS, type CreatedApiKey, type CreatedInvitation, type StoredWorkflow } from "@/contract";
import { peerAddressHeader } from "@/lib/auth/peer-address";
import { testMember } from "@/lib/http/test-members";
import { startTestIdentityProvider } from "@/lib/sso/__fixtures__/test-identity-provider";
import { CLIENT_ADDRESS, OWNER, startAuditedApp, type AuditedApp } from "./__fixtures__/audited-app";
import { auditEntryOf } from "./audit-repository";

/**
 * Walks every action the audit log records (docs/CONTRACT.md section 17) through the real
 * endpoints and database: each writes exactly one entry, naming the right actor (a user, or the
 * API key that acted), the client's address and the object, and no entry holds a secret value.
 */

let app: AuditedApp;
const SECRET_VALUE = "sk-live-audit-walk-0123456789abcdef";
const HOOK_SECRET = "whsec-audit-walk-signing-secret";
const CHAT_PASSWORD = "chat-password-audit-walk";
const INVITEE_PASSWORD = "invitee password audit walk";
/** Every secret the walk sends or receives: none may appear in any entry. */
const secrets: string[] = [SECRET_VALUE, HOOK_SECRET, CHAT_PASSWORD, INVITEE_PASSWORD, OWNER.password];

beforeAll(async () => {
  app = await startAuditedApp();
});
afterAll(() => app?.close());

async function allEntries() {
  const rows = await app.kit.database.prisma.auditEntry.findMany({
    where: { workspaceId: app.workspaceId },
    orderBy: [{ at: "asc" }, { id: "asc" }],
  });
  return rows.map(auditEntryOf);
}

/** Runs `act`, checks its answer's status and that it added exactly one entry, and answers that entry. */
async function oneEntry(act: () => Promise<Response>, status: number) {
  const before = await allEntries();
  const response = await act();
  expect(response.status, await response.clone().text()).toBe(status);
  const after = await allEntries();
  expect(after.length - before.length).toBe(1);
  const entry = after.at(-1)!;
  return { entry, body: status === 204 ? null : ((await response.json()) as Record<string, unknown>) };
}

function document(name: string) {
  return {
    name,
    blocks: [
      { id: "start", type: "start", name: "Start", position: { x: 0, y: 0 }, config: { inputs: [] } },
      { id: "reply", type: "response", name: "Reply", position: { x: 300, y: 0 }, config: { data: { ok: true } } },
    ],
    edges: [{ id: "start-reply", source: "start", target: "reply" }],
  };
}

describe("every audited action", () => {
  it("writes one entry with the right actor, address and object, and never a secret", async () => {
    const { endpoints: http, owner, ownerKey, request } = app;
    const asOwner = { kind: "user", id: owner.userId, name: OWNER.name };
    const asKey = { kind: "apiKey", id: app.ownerKeyId, name: `CI deploy · ${OWNER.name}` };

    // Workflows: created (by a key), imported, deployed twice, rolled back.
    const created = await oneEntry(
      () => http.workflows.create(request("POST", "/api/workflows", document("Triage")), {}, ownerKey),
      201,
    );
    const workflow = created.body as unknown as StoredWorkflow;
    expect(created.entry).toMatchObject({
      action: "workflow.create",
      actor: asKey,
      address: CLIENT_ADDRESS,
      object: { type: "workflow", id: workflow.id, name: "Triage" },
      summary: { after: { blocks: 2 } },
    });
    const imported = await oneEntry(
      () => http.importFile(request("POST", "/api/workflows/import", { file: document("Imported") }), {}, owner),
      201,
    );
    expect(imported.entry).toMatchObject({ action: "workflow.import", actor: asOwner, object: { type: "workflow" } });
    const deployPath = `/api/workflows/${workflow.id}/deployments`;
    const first = await oneEntry(
      () => http.deployments.create(request("POST", deployPath, {}), { id: workflow.id }, owner),
      201,
    );
    expect(first.entry).toMatchObject({ action: "workflow.deploy", summary: { after: { number: 1 } } });
    await oneEntry(() => http.deployments.create(request("POST", deployPath, {}), { id: workflow.id }, owner), 201);
    const firstId = (first.body as { id: string }).id;
    const rollback = await oneEntry(
      () =>
        http.deployments.activate(
          request("POST", `${deployPath}/${firstId}/activate`),
          { id: workflow.id, deploymentId: firstId },
          owner,
        ),
      200,
    );
    expect(rollback.entry).toMatchObject({
      action: "workflow.activate",
      object: { type: "workflow", id: workflow.id, name: "Triage" },
      summary: { after: { deploymentId: firstId, number: 1 } },
    });

    // A webhook with a signing secret, created and deleted.
    const hook = await oneEntry(
      () =>
        http.webhooks.create(
          request("POST", `/api/workflows/${workflow.id}/webhooks`, { secret: HOOK_SECRET }),
          { id: workflow.id },
          owner,
        ),
      201,
    );
    expect(hook.entry).toMatchObject({ action: "webhook.create", summary: { after: { signed: true } } });
    const hookId = (hook.body as { id: string }).id;
    const hookGone = await oneEntry(
      () => http.webhooks.remove(request("DELETE", `/api/webhooks/${hookId}`), { id: hookId }, owner),
      204,
    );
    expect(hookGone.entry).toMatchObject({ action: "webhook.delete", object: { type: "webhook", id: hookId } });

    // A schedule, paused, deleted.
    const schedule = await oneEntry(
      () =>
        http.schedules.create(
          request("POST", `/api/workflows/${workflow.id}/schedules`, { cron: "0 9 * * 1", timezone: "Europe/Paris" }),
          { id: workflow.id },
          owner,
        ),
      201,
    );
    expect(schedule.entry).toMatchObject({
      action: "schedule.create",
      summary: { after: { cron: "0 9 * * 1", timezone: "Europe/Paris" } },
    });
    const scheduleId = (schedule.body as { id: string }).id;
    const paused = await oneEntry(
      () =>
        http.schedules.update(
          request("PATCH", `/api/schedules/${scheduleId}`, { paused: true }),
          { id: scheduleId },
          owner,
        ),
      200,
    );
    expect(paused.entry).toMatchObject({ action: "schedule.update", summary: { after: { paused: true } } });
    await oneEntry(
      () => http.schedules.remove(request("DELETE", `/api/schedules/${scheduleId}`), { id: scheduleId }, owner),
      204,
    );

    // The chat with a password, and the MCP tool.
    const chat = await oneEntry(
      () =>
        http.chat.save(
          request("POST", `/api/workflows/${workflow.id}/chat`, { enabled: true, password: CHAT_PASSWORD }),
          { id: workflow.id },
          owner,
        ),
      200,
    );
    expect(chat.entry).toMatchObject({
      action: "chat.configure",
      summary: { before: { enabled: false }, after: { enabled: true, hasPassword: true }, passwordChanged: true },
    });
    const tool = await oneEntry(
      () =>
        http.mcp.save(
          request("POST", `/api/workflows/${workflow.id}/mcp`, { enabled: true, toolName: "triage_ticket" }),
          { id: workflow.id },
          owner,
        ),
      200,
    );
    expect(tool.entry).toMatchObject({
      action: "mcp.publish",
      object: { id: workflow.id, name: "triage_ticket" },
      summary: { before: null, after: { enabled: true, toolName: "triage_ticket" } },
    });

    // A secret, set and deleted by name.
    const secretSet = await oneEntry(
      () =>
        http.secrets.put(
          request("PUT", "/api/secrets/SUPPORT_TOKEN", { value: SECRET_VALUE }),
          { name: "SUPPORT_TOKEN" },
          owner,
        ),
      204,
    );
    expect(secretSet.entry).toMatchObject({ action: "secret.set", object: { type: "secret", id: "SUPPORT_TOKEN" } });
    await oneEntry(
      () => http.secrets.remove(request("DELETE", "/api/secrets/SUPPORT_TOKEN"), { name: "SUPPORT_TOKEN" }, owner),
      204,
    );

    // An API key, made and revoked: the key itself is never recorded.
    const keyMade = await oneEntry(
      () => http.apiKeys.create(request("POST", "/api/api-keys", { name: "Nightly" }), {}, owner),
      201,
    );
    const made = keyMade.body as unknown as CreatedApiKey;
    secrets.push(made.key);
    expect(keyMade.entry).toMatchObject({
      action: "apiKey.create",
      object: { type: "apiKey", id: made.id, name: "Nightly" },
      summary: { after: { prefix: made.prefix } },
    });
    const keyRevoked = await oneEntry(
      () => http.apiKeys.revoke(request("DELETE", `/api/api-keys/${made.id}`), { id: made.id }, owner),
      204,
    );
    expect(keyRevoked.entry).toMatchObject({ action: "apiKey.revoke", object: { id: made.id, name: "Nightly" } });

    // Budgets and prices.
    const budget = await oneEntry(
      () => http.budgets.update(request("PUT", "/api/budgets", { workspace: { monthlyCap: 25 } }), {}, owner),
      200,
    );
    expect(budget.entry).toMatchObject({
      action: "budget.set",
      summary: { before: { workspace: null }, after: { workspace: 25 } },
    });
    const price = await oneEntry(
      () =>
        http.prices.put(
          request("PUT", "/api/prices/openai/gpt-4o", { input: 2, output: 8 }),
          { model: "openai/gpt-4o" },
          owner,
        ),
      200,
    );
    expect(price.entry).toMatchObject({ action: "price.set", object: { id: "openai/gpt-4o" } });
    await oneEntry(
      () => http.prices.remove(request("DELETE", "/api/prices/openai/gpt-4o"), { model: "openai/gpt-4o" }, owner),
      204,
    );

    // Members: invited, joined (as themselves), role changed, removed; an invitation revoked.
    const workspacePath = `/api/workspaces/${app.workspaceId}/members`;
    const params = { workspaceId: app.workspaceId };
    const invited = await oneEntry(
      () =>
        http.members.invite(request("POST", workspacePath, { email: "bo@example.com", role: "editor" }), params, owner),
      201,
    );
    expect(invited.entry).toMatchObject({
      action: "member.invite",
      summary: { after: { email: "bo@example.com", role: "editor" } },
    });
    const link = (invited.body as unknown as CreatedInvitation).link;
    const token = decodeURIComponent(link.split("/invite/")[1]!);
    secrets.push(token);
    const joined = await oneEntry(
      () =>
        http.invitations.accept(
          request("POST", `/api/auth/invitations/${token}`, { name: "Bo", password: INVITEE_PASSWORD }),
          { token },
          undefined,
        ),
      200,
    );
    const bo = await app.kit.database.prisma.user.findUniqueOrThrow({ where: { email: "bo@example.com" } });
    expect(joined.entry).toMatchObject({
      action: "member.join",
      actor: { kind: "user", id: bo.id, name: "Bo" },
      address: CLIENT_ADDRESS,
      summary: { after: { role: "editor" } },
    });
    const signedOut = await oneEntry(
      () =>
        http.sessions.revokeAll(
          request("DELETE", `${workspacePath}/${bo.id}/sessions`),
          { ...params, userId: bo.id },
          owner,
        ),
      200,
    );
    expect(signedOut.entry).toMatchObject({
      action: "session.revoke",
      object: { type: "member", id: bo.id, name: "Bo" },
      summary: { after: { sessionsEnded: 0, all: true } },
    });
    const promoted = await oneEntry(
      () =>
        http.members.changeRole(
          request("PATCH", `${workspacePath}/${bo.id}`, { role: "admin" }),
          { ...params, userId: bo.id },
          owner,
        ),
      200,
    );
    expect(promoted.entry).toMatchObject({
      action: "member.role",
      object: { type: "member", id: bo.id, name: "Bo" },
      summary: { before: { role: "editor" }, after: { role: "admin" } },
    });
    const removed = await oneEntry(
      () =>
        http.members.removeMember(request("DELETE", `${workspacePath}/${bo.id}`), { ...params, userId: bo.id }, owner),
      204,
    );
    expect(removed.entry).toMatchObject({
      action: "member.remove",
      summary: { before: { email: "bo@example.com", role: "admin" } },
    });
    const second = await http.members.invite(
      request("POST", workspacePath, { email: "cy@example.com", role: "viewer" }),
      params,
      owner,
    );
    const invitationId = ((await second.json()) as CreatedInvitation).id;
    await oneEntry(
      () =>
        http.members.revokeInvitation(
          request("DELETE", `/api/workspaces/${app.workspaceId}/invitations/${invitationId}`),
          { ...params, invitationId },
          owner,
        ),
      204,
    );

    // Single sign-on: a real provider's discovery is read first; the client secret is never recorded.
    const idp = await startTestIdentityProvider([]);
    secrets.push(idp.clientSecret);
    try {
      const sso = await oneEntry(
        () =>
          http.sso.put(
            request("PUT", "/api/sso", {
              name: "Acme ID",
              issuer: idp.issuer,
              clientId: idp.clientId,
              clientSecret: idp.clientSecret,
            }),
            {},
            owner,
          ),
        200,
      );
      expect(sso.entry).toMatchObject({
        action: "sso.configure",
        object: { type: "ssoProvider", name: "Acme ID" },
        summary: { before: null, after: { issuer: idp.issuer, clientId: idp.clientId }, clientSecretChanged: true },
      });
    } finally {
      await idp.close();
    }

    // Workflow deleted last (its deployments and hooks go with it).
    const deleted = await oneEntry(
      () => http.workflows.remove(request("DELETE", `/api/workflows/${workflow.id}`), { id: workflow.id }, ownerKey),
      204,
    );
    expect(deleted.entry).toMatchObject({
      action: "workflow.delete",
      actor: asKey,
      object: { type: "workflow", id: workflow.id, name: "Triage" },
    });

    // Sign-ins through better-auth's handler, a wrong password and the right one.
    const signIn = (password: string) =>
      app.auth.handler(
        new Request("http://127.0.0.1:3000/api/auth/sign-in/email", {
          method: "POST",
          headers: {
            "content-type": "application/json",
            origin: "http://127.0.0.1:3000",
            [peerAddressHeader()]: CLIENT_ADDRESS,
          },
          body: JSON.stringify({ email: OWNER.email, password }),
        }),
      );
    const failed = await oneEntry(() => signIn("not the password at all"), 401);
    expect(failed.entry).toMatchObject({
      action: "signIn.failed",
      actor: asOwner,
      address: CLIENT_ADDRESS,
      object: { type: "user", id: owner.userId, name: OWNER.email },
      summary: { method: "password" },
    });
    const succeeded = await oneEntry(() => signIn(OWNER.password), 200);
    expect(succeeded.entry).toMatchObject({
      action: "signIn.succeeded",
      actor: asOwner,
      summary: { method: "password" },
    });

    // Every action of the contract was walked, and nothing anywhere in the log holds a secret.
    const entries = await allEntries();
    const walked = new Set(entries.map((entry) => entry.action));
    expect(AUDIT_ACTIONS.filter((action) => !walked.has(action))).toEqual([]);
    const everything = JSON.stringify(entries);
    for (const secret of secrets) expect(everything).not.toContain(secret);
  }, 60_000);

  it("records nothing for a refused change", async () => {
    const before = (await allEntries()).length;
    const viewer = testMember(app.workspaceId, "viewer", { userId: app.owner.userId, name: OWNER.name });
    const refused = await app.endpoints.secrets.put(
      app.request("PUT", "/api/secrets/NOPE", { value: SECRET_VALUE }),
      { name: "NOPE" },
      viewer,
    );
    expect(refused.status).toBe(403);
    const invalid = await app.endpoints.workflows.create(
      app.request("POST", "/api/workflows", { name: "" }),
      {},
      app.owner,
    );
    expect(invalid.status).toBe(400);
    expect((await allEntries()).length).toBe(before);
  });
});
