"use client";

import { Fragment } from "react";
import { KeyboardKey } from "@/components/ui/keyboard-key";
import { ModalDialog } from "@/components/ui/modal-dialog";
import { SHORTCUTS } from "./shortcut-list";

export function ShortcutsDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  return (
    <ModalDialog
      open={open}
      title="Keyboard shortcuts"
      onClose={onClose}
      testId="shortcuts-dialog"
      footer={
        <button type="button" className="btn-secondary" onClick={onClose}>
          Close
        </button>
      }
    >
      <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-2">
        {SHORTCUTS.map((shortcut) => (
          <Fragment key={shortcut.action}>
            <dt className="flex items-center gap-1 whitespace-nowrap">
              {shortcut.keys.map((key) => (
                <KeyboardKey key={key}>{key === "Mod" ? "Ctrl/⌘" : key}</KeyboardKey>
              ))}
            </dt>
            <dd className="text-slate-700">{shortcut.action}</dd>
          </Fragment>
        ))}
      </dl>
    </ModalDialog>
  );
}
