"use client";

import { AuthCard } from "./auth-card";
import { CreateWorkspaceForm } from "./create-workspace-form";
import { UserMenu } from "./user-menu";
import { openWorkspace } from "./workspace-cookie";

/** In place of a page, for a user who belongs to no workspace (they left, or were removed, from all of them). */
export function NoWorkspacePanel() {
  return (
    <>
      <div className="flex justify-end px-6 pt-4">
        <UserMenu />
      </div>
      <AuthCard
        title="No workspace yet"
        intro="You are not in any workspace yet — create one, or ask an admin of a workspace to invite you."
      >
        <div data-testid="no-workspace">
          <CreateWorkspaceForm onCreated={(workspace) => openWorkspace(workspace.id)} />
        </div>
      </AuthCard>
    </>
  );
}
