export { WorkflowEditor } from "./workflow-editor";
export { createEditorStore, EditorStoreProvider, useEditorStore, useEditorStoreApi, saveStatus } from "./store";
export type { BlockRunState, BlockRunStatus, EditorState, EditorStore, RunSliceState, RunStatus, SaveStatus, StoredWorkflow } from "./store";
