"use client";

import { useEditorStoreApi } from "../store";
import { clearDraft } from "./draft-backup";
import { useDraftBackup } from "./use-draft-backup";
import { formatDateTime } from "@/components/ui/date-time";

/** Offers back the unsaved work this browser kept from an earlier visit. */
export function DraftBanner() {
  const store = useEditorStoreApi();
  const { draft, dismiss } = useDraftBackup();
  if (!draft) return null;
  const restore = () => {
    store.getState().replaceDocument(draft.document);
    dismiss();
  };
  const discard = () => {
    clearDraft(store.getState().workflowId);
    dismiss();
  };
  return (
    <div
      role="alert"
      className="flex items-center gap-3 border-b border-amber-200 bg-amber-50 px-4 py-2 text-sm text-amber-900"
      data-testid="draft-banner"
    >
      <span>
        Unsaved changes from {formatDateTime(draft.keptAt)} (based on version {draft.basedOnVersion}) were kept in this
        browser.
      </span>
      <button type="button" className="btn-primary" onClick={restore} data-testid="draft-restore">
        Restore them
      </button>
      <button type="button" className="btn-secondary" onClick={discard} data-testid="draft-discard">
        Discard
      </button>
    </div>
  );
}
