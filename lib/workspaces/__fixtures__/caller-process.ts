/**
 * Another server process, for tests that change members in one process and ask another: it
 * answers GET / with 200 `{ userId, workspaceId }` when the request's API key or session cookie
 * acts in the workspace it names (`x-trellis-workspace`), as the dispatcher decides it, and 401 or
 * 404 when not. Nothing is shared with the test but the database (CALLER_DATABASE_URL) and the
 * session secret (CALLER_AUTH_SECRET). Prints `[caller-process] listening on <port>` when ready.
 */
import { createServer } from "node:http";
// The files themselves, not lib/auth's index: it holds the pages' helpers, which need Next.
import { createAuth } from "@/lib/auth/auth";
import { callerOf } from "@/lib/auth/authenticate";
import { requestedWorkspace, workspaceAccess } from "@/lib/auth/workspace-access";
import { createPrisma, WorkspaceRepository } from "@/lib/db";
import { errorResponse } from "@/lib/http/errors";

const url = process.env.CALLER_DATABASE_URL;
const secret = process.env.CALLER_AUTH_SECRET;
if (!url || !secret) throw new Error("caller-process needs CALLER_DATABASE_URL and CALLER_AUTH_SECRET");
const { prisma } = createPrisma({ kind: "postgres", url });
const auth = createAuth({ prisma, secret });
const workspaces = new WorkspaceRepository(prisma);

async function answer(request: Request): Promise<Response> {
  try {
    const caller = await callerOf(request, { auth, prisma });
    if (!caller) return Response.json({ error: { code: "unauthenticated" } }, { status: 401 });
    const workspace = await workspaceAccess(workspaces, caller, requestedWorkspace(request, {}));
    return Response.json({ userId: caller.userId, workspaceId: workspace.id });
  } catch (error) {
    return errorResponse(error);
  }
}

const server = createServer((incoming, outgoing) => {
  const headers = new Headers();
  for (const [name, value] of Object.entries(incoming.headers)) if (typeof value === "string") headers.set(name, value);
  void answer(new Request(`http://127.0.0.1${incoming.url ?? "/"}`, { headers })).then(async (response) => {
    outgoing.statusCode = response.status;
    outgoing.setHeader("content-type", "application/json");
    outgoing.end(await response.text());
  });
});
server.listen(0, "127.0.0.1", () => {
  const address = server.address();
  console.log(`[caller-process] listening on ${typeof address === "object" && address ? address.port : 0}`);
});
process.on("SIGTERM", () => {
  server.close();
  void prisma.$disconnect().finally(() => process.exit(0));
});
