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
import { PastRunBanner, RunPanel, useRunStream } from "./runs";
import { EditorPanels } from "./editor-panels";

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
  // The one consumer of run events, kept here so the run panel can open, close and resize freely.
  useRunStream();
  const runPanelOpen = useEditorStore((state) => state.run.panelOpen);

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
    <div className="flex h-screen flex-col overflow-hidden" data-testid="editor">
      <EditorToolbar
        onAutoLayout={actions.autoLayout}
        onFitView={fitView}
        onShowHelp={actions.showHelp}
        onToggleCopilot={() => (copilotOpen || copilotQuestion ? closeCopilot() : setCopilotOpen(true))}
      />
      {pastRun ? <PastRunBanner pastRun={pastRun} /> : readOnly ? <ReadOnlyBanner /> : <DraftBanner />}
      <EditorPanels
        palette={readOnly ? undefined : (control) => <Palette control={control} />}
        canvas={<WorkflowCanvas />}
        inspector={(control) =>
          (copilotOpen || copilotQuestion) && !readOnly ? (
            <CopilotPanel key={copilotQuestion?.asked ?? 0} question={copilotQuestion} onClose={closeCopilot} />
          ) : (
            <Inspector control={control} />
          )
        }
        runPanel={<RunPanel />}
        runPanelOpen={runPanelOpen}
      />
      <ShortcutsDialog open={helpOpen} onClose={() => setHelpOpen(false)} />
      {!readOnly && <ConflictDialog />}
    </div>
  );
}
