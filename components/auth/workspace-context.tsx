"use client";

import { createContext, useContext, useMemo, type ReactNode } from "react";
import { roleAtLeast, type SessionUser, type WorkspaceSummary } from "@/contract";
import { NoWorkspacePanel } from "./no-workspace-panel";

/** Where the signed-in user acts, as the server page found it (requireWorkspace). */
export interface ActingWorkspace {
  user: SessionUser;
  workspace: WorkspaceSummary;
  /** Every workspace the user belongs to, the current one included. */
  workspaces: WorkspaceSummary[];
}

const WorkspaceContext = createContext<ActingWorkspace | null>(null);

export function WorkspaceProvider({ value, children }: { value: ActingWorkspace; children: ReactNode }) {
  return <WorkspaceContext.Provider value={value}>{children}</WorkspaceContext.Provider>;
}

/** The workspace the page acts in, or null outside a workspace page. */
export function useWorkspace(): ActingWorkspace | null {
  return useContext(WorkspaceContext);
}

/** The workspace of a page inside WorkspaceGate (a programming error elsewhere). */
export function useActingWorkspace(): ActingWorkspace {
  const acting = useContext(WorkspaceContext);
  if (!acting) throw new Error("useActingWorkspace must be used inside <WorkspaceGate> or <WorkspaceProvider>");
  return acting;
}

/**
 * Whether the user's role may change things here (editor or above). Only a hint for what to show:
 * the API checks the role on every request.
 */
export function useCanEdit(): boolean {
  const acting = useWorkspace();
  return acting === null || roleAtLeast(acting.workspace.role, "editor");
}

/**
 * A signed-in page's frame: the page inside its workspace, or, for a user in no workspace yet,
 * the panel that creates one.
 */
export function WorkspaceGate({
  user,
  workspace,
  workspaces,
  children,
}: {
  user: SessionUser;
  workspace: WorkspaceSummary | null;
  workspaces: WorkspaceSummary[];
  children: ReactNode;
}) {
  const value = useMemo(() => (workspace ? { user, workspace, workspaces } : null), [user, workspace, workspaces]);
  if (!value) return <NoWorkspacePanel />;
  return <WorkspaceProvider value={value}>{children}</WorkspaceProvider>;
}
