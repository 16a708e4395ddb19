import type { WorkspaceRole } from "@/contract";

/** A role as the UI shows it: "Owner", "Viewer". */
export function roleLabel(role: WorkspaceRole): string {
  return role.charAt(0).toUpperCase() + role.slice(1);
}
