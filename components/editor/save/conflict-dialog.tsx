"use client";

import { useState } from "react";
import { ModalDialog } from "@/components/ui/modal-dialog";
import { useEditorStore, useEditorStoreApi } from "../store";
import { overwriteServerCopy } from "./use-autosave";
import { formatDateTime } from "@/components/ui/date-time";
import { countOf } from "@/contract";

function describeWinner(current: { version: number; updatedAt?: string; blocks: unknown[] } | null): string {
  if (!current) return "Another tab or person saved this workflow after you opened it.";
  const when = current.updatedAt ? formatDateTime(current.updatedAt) : "recently";
  return `Another tab or person saved version ${current.version} (${countOf(current.blocks.length, "block")}) at ${when}, after the version you started from.`;
}

/**
 * Shown when a save was refused as stale. Both sides survive until the user picks: reload takes
 * their copy (copy yours as JSON first to keep it), overwrite saves yours over theirs.
 */
export function ConflictDialog() {
  const store = useEditorStoreApi();
  const conflict = useEditorStore((state) => state.save.conflict);
  const localVersion = useEditorStore((state) => state.save.version);
  const [busy, setBusy] = useState(false);
  const current = conflict?.current ?? null;

  const reload = () => {
    if (current) store.getState().loadStored(current);
  };
  const overwrite = async () => {
    if (!current) return;
    setBusy(true);
    await overwriteServerCopy(store, current);
    setBusy(false);
  };
  const copyMine = async () => {
    await navigator.clipboard.writeText(JSON.stringify(store.getState().toDocument(), null, 2)).catch(() => undefined);
  };

  return (
    <ModalDialog
      open={conflict !== null}
      title="This workflow was changed elsewhere"
      onClose={() => undefined}
      dismissable={false}
      testId="conflict-dialog"
      footer={
        <>
          <button type="button" className="btn-secondary" onClick={copyMine} data-testid="conflict-copy-mine">
            Copy my version as JSON
          </button>
          <button
            type="button"
            className="btn-secondary"
            onClick={reload}
            disabled={!current || busy}
            data-testid="conflict-reload"
          >
            Reload theirs (discard mine)
          </button>
          <button
            type="button"
            className="btn-primary"
            onClick={overwrite}
            disabled={!current || busy}
            data-testid="conflict-overwrite"
          >
            Overwrite with mine
          </button>
        </>
      }
    >
      <p data-testid="conflict-message">
        Your changes were not saved. {describeWinner(current)} You were editing version {localVersion}.
      </p>
      <p className="mt-2 text-slate-600">
        Reload to take their version and drop your unsaved changes, or overwrite to save yours over theirs as a new
        version. Nothing is discarded until you choose.
      </p>
    </ModalDialog>
  );
}
