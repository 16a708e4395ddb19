"use client";

import { useCallback, useMemo, useState } from "react";
import { useReactFlow } from "@xyflow/react";
import { layoutGraph } from "./graph/auto-layout";
import { Palette } from "./canvas/palette";
import { ShortcutsDialog } from "./canvas/shortcuts-dialog";
import { useClipboard } from "./canvas/use-clipboard";
import { useEditorShortcuts } from "./canvas/use-editor-shortcuts";
import { useReadableFit } from "./canvas/use-readable-fit";
import { useValidation } from "./canvas/use-validation";
import { FIT_ALL, WorkflowCanvas } from "./canvas/workflow-canvas";
import { CopilotPanel } from "./copilot/copilot-panel";
import { EditorToolbar } from "./editor-toolbar";
import { Inspector } from "./inspector/inspector";
import { ConflictDialog } from "./save/conflict-dialog";
import { DraftBanner } from "./save/draft-banner";
import { useAutosave } from "./save/use-autosave";
import { useLeaveGuard } from "./save/use-leave-guard";
import { useEditorStore, useEditorStoreApi } from "./store";
import { ReadOnlyBanner } from "./read-only-banner";
import { PastRunBanner, RunPanel } from "./runs";

/** The editor's frame: toolbar, palette, canvas, inspector, and the hooks that keep it honest. */
export function EditorLayout() {
  const store = useEditorStoreApi();
  const flow = useReactFlow();
  const clipboard = useClipboard();
  const [helpOpen, setHelpOpen] = useState(false);
  const [copilotOpen, setCopilotOpen] = useState(false);
  const copilotQuestion = useEditorStore((state) => state.copilotQuestion);
  const closeCopilot = useCallback(() => {
    setCopilotOpen(false);
    store.getState().askCopilot(null);
  }, [store]);
  const readOnly = useEditorStore((state) => state.readOnly);
  const pastRun = useEditorStore((state) => state.pastRun);
  useAutosave();
  useLeaveGuard();
  useValidation();

  const fitView = useCallback(() => void flow.fitView({ ...FIT_ALL, duration: 200 }), [flow]);
  const fitReadable = useReadableFit();
  const autoLayout = useCallback(async () => {
    const { nodes, edges } = store.getState();
    const positions = await layoutGraph(nodes, edges);
    store.getState().applyPositions(positions);
    requestAnimationFrame(fitReadable);
  }, [store, fitReadable]);
  const actions = useMemo(
    () => ({
      copy: () => void clipboard.copy(),
      cut: () => void clipboard.cut(),
      paste: () => void clipboard.paste(),
      duplicate: () => void clipboard.duplicate(),
      fitView,
      autoLayout: () => void autoLayout(),
      showHelp: () => setHelpOpen(true),
    }),
    [clipboard, fitView, autoLayout],
  );
  useEditorShortcuts(actions);

  return (
    <div className="flex h-screen flex-col" data-testid="editor">
      <EditorToolbar
        onAutoLayout={actions.autoLayout}
        onFitView={fitView}
        onShowHelp={actions.showHelp}
        onToggleCopilot={() => (copilotOpen || copilotQuestion ? closeCopilot() : setCopilotOpen(true))}
      />
      {pastRun ? <PastRunBanner pastRun={pastRun} /> : readOnly ? <ReadOnlyBanner /> : <DraftBanner />}
      <div className="flex min-h-0 flex-1">
        {!readOnly && <Palette />}
        <main className="min-w-0 flex-1">
          <WorkflowCanvas />
        </main>
        {(copilotOpen || copilotQuestion) && !readOnly ? (
          <CopilotPanel key={copilotQuestion?.asked ?? 0} question={copilotQuestion} onClose={closeCopilot} />
        ) : (
          <Inspector />
        )}
      </div>
      <RunPanel />
      <ShortcutsDialog open={helpOpen} onClose={() => setHelpOpen(false)} />
      {!readOnly && <ConflictDialog />}
    </div>
  );
}
