import type { WorkspaceRole } from "@/contract";
import type { Member } from "@/lib/auth";

/**
 * A caller acting in a workspace, as route() hands it to an endpoint: for tests that call
 * endpoints directly. The user need not exist; the workspace should (createWorkspace).
 */
export function testMember(
  workspaceId: string,
  role: WorkspaceRole = "editor",
  user: { userId?: string; email?: string; name?: string } = {},
): Member {
  return {
    userId: user.userId ?? "test-user",
    email: user.email ?? "tester@example.com",
    name: user.name ?? "Tester",
    via: "session",
    workspace: { id: workspaceId, role },
  };
}
