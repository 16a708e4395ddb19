export {
  createEditorStore,
  type EditorState,
  type EditorStore,
  type EditorStoreOptions,
  type PastRun,
} from "./editor-store";
export { EditorStoreProvider, useEditorStore, useEditorStoreApi } from "./editor-store-context";
export { reduceRun, reduceRunEvents } from "./run-reducer";
export type { RunPanelTab, RunSliceState } from "./run-slice";
export {
  IDLE_RUN,
  initialRunView,
  isLive,
  type ApprovalEntry,
  type AskEntry,
  type BlockRunState,
  type BlockRunStatus,
  type ConsoleEntry,
  type RunView,
  type RunViewStatus,
} from "./run-view";
export { nodeById } from "./node-index";
export { saveStatus, type SaveStatus } from "./save-slice";
export { testRunHasIssues, touchedKey, workflowHasIssues, type AttentionState } from "./attention-slice";
