import { pathParameter, type ApiOperation } from "./operation";
import { memberSessionsSchema, sessionsRevokedSchema } from "./schemas-sessions";

/** A member's sessions, for admins (docs/CONTRACT.md section 7): lib/workspaces/member-session-endpoints.ts. */

const workspaceId = pathParameter("workspaceId", "The workspace's id: the request acts in it.");
const userId = pathParameter("userId", "The member's user id.");
const OWNERS =
  "Admins see and end any member's sessions but an owner's, which only an owner may end. A session acts in every workspace of its person: ending it signs that browser out everywhere.";

export const SESSION_OPERATIONS = [
  {
    operationId: "listMemberSessions",
    method: "GET",
    path: "/api/workspaces/{workspaceId}/members/{userId}/sessions",
    tag: "Workspaces",
    summary: "A member's signed-in sessions",
    description: `Unexpired sessions, most recently active first: where and when each was made, never its token. ${OWNERS}`,
    access: "member",
    role: "admin",
    parameters: [workspaceId, userId],
    answers: [{ status: 200, description: "The member's sessions.", schema: memberSessionsSchema }],
  },
  {
    operationId: "revokeMemberSession",
    method: "DELETE",
    path: "/api/workspaces/{workspaceId}/members/{userId}/sessions/{sessionId}",
    tag: "Workspaces",
    summary: "End one of a member's sessions",
    description: `At once: that browser's next request is signed out, on every server process. ${OWNERS}`,
    access: "member",
    role: "admin",
    parameters: [workspaceId, userId, pathParameter("sessionId", "The session's id, as the list answers it.")],
    answers: [{ status: 204, description: "Ended." }],
  },
  {
    operationId: "revokeMemberSessions",
    method: "DELETE",
    path: "/api/workspaces/{workspaceId}/members/{userId}/sessions",
    tag: "Workspaces",
    summary: "End every session of a member",
    description: `At once, on every server process; the member signs in again to go on. ${OWNERS}`,
    access: "member",
    role: "admin",
    parameters: [workspaceId, userId],
    answers: [{ status: 200, description: "How many sessions were ended.", schema: sessionsRevokedSchema }],
  },
] as const satisfies readonly ApiOperation[];
