import "server-only";
import { clientAddressOf, trustedProxiesFromEnvironment, type Caller, type Member } from "@/lib/auth";
import { recordAudit, type AuditBy, type AuditRecord, type AuditWriter } from "./audit-log";

/** Who a request acts as, for its audit entries: its API key or its session's user, and the client's address. */
export function auditByOf(request: Request, caller: Caller): AuditBy {
  const address = clientAddressOf(request, trustedProxiesFromEnvironment());
  const actor: AuditBy["actor"] =
    caller.via === "api-key"
      ? { kind: "apiKey", apiKeyId: caller.apiKeyId, userId: caller.userId, name: caller.name }
      : { kind: "user", userId: caller.userId, name: caller.name };
  return { actor, address };
}

/** A signed-in user acting on their own (accepting an invitation), from the request's client address. */
export function auditByUser(request: Request, user: { userId: string; name: string }): AuditBy {
  return {
    actor: { kind: "user", userId: user.userId, name: user.name },
    address: clientAddressOf(request, trustedProxiesFromEnvironment()),
  };
}

/** Records what a member's request did in the workspace it acts in. */
export type AuditRequest = (request: Request, member: Member, record: AuditRecord, db?: AuditWriter) => Promise<void>;

/** An AuditRequest writing with `writer` (the app's client, or a test database's) unless a transaction is given. */
export function auditRequestsTo(writer: () => AuditWriter): AuditRequest {
  return (request, member, record, db) =>
    recordAudit(db ?? writer(), member.workspace.id, auditByOf(request, member), record);
}
