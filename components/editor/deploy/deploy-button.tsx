"use client";

import { Rocket } from "lucide-react";
import { useState } from "react";
import { saveStatus, useEditorStore } from "@/components/editor/store";
import { DeployDrawer } from "./deploy-drawer";
import { useDeployments, useDraftDiff } from "./use-deployments";

/**
 * The toolbar's deploy state: "Not deployed", "Deployed v3", or "v3 · draft differs" when the saved
 * draft does something the active deployment does not. Opens the deploy drawer.
 */
export function DeployButton() {
  const workflowId = useEditorStore((state) => state.workflowId);
  const save = useEditorStore((state) => state.save);
  const readOnly = useEditorStore((state) => state.readOnly);
  const [open, setOpen] = useState(false);
  const { active, isPending } = useDeployments(workflowId);
  const { differs } = useDraftDiff(workflowId, active?.id, save.version);
  const status = saveStatus(save);
  const label = isPending ? "Deploy" : active ? `Deployed v${active.number}` : "Not deployed";
  return (
    <>
      <button
        type="button"
        className="btn-secondary"
        onClick={() => setOpen(true)}
        data-testid="deploy-open"
        data-deployed={active?.number ?? ""}
        data-draft-differs={differs === true}
      >
        <Rocket className="h-4 w-4" aria-hidden />
        <span data-testid="deploy-status" className="max-lg:sr-only">
          {label}
        </span>
        {differs && (
          <span
            className="rounded bg-amber-100 px-1 text-xs text-amber-800"
            data-testid="draft-differs"
            title="The saved draft does something the active deployment does not"
          >
            draft differs
          </span>
        )}
      </button>
      <DeployDrawer
        open={open}
        onClose={() => setOpen(false)}
        workflowId={workflowId}
        savedVersion={save.version}
        unsaved={status === "unsaved" || status === "saving"}
        readOnly={readOnly}
      />
    </>
  );
}
