"use client";

import { Eye } from "lucide-react";
import { useWorkspace } from "@/components/auth/workspace-context";

/** Says why nothing can be changed: the user's role in this workspace. */
export function ReadOnlyBanner() {
  const acting = useWorkspace();
  const role = acting?.workspace.role ?? "viewer";
  return (
    <div
      role="note"
      className="flex items-center gap-2 border-b border-sky-200 bg-sky-50 px-4 py-2 text-sm text-sky-900"
      data-testid="read-only-banner"
    >
      <Eye className="h-4 w-4 shrink-0" aria-hidden />
      <span>
        View only — your role in {acting?.workspace.name ?? "this workspace"} is {role}. You can look at the workflow
        and its runs; an editor can change or run it.
      </span>
    </div>
  );
}
