export { WorkflowEditor } from "./workflow-editor";
export { PastRunEditor } from "./past-run-editor";
export { createEditorStore, EditorStoreProvider, useEditorStore, useEditorStoreApi, saveStatus } from "./store";
export type {
  PastRun,
  BlockRunState,
  BlockRunStatus,
  EditorState,
  EditorStore,
  RunSliceState,
  RunViewStatus,
  SaveStatus,
} from "./store";
