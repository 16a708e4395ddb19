export { WorkflowEditor } from "./workflow-editor";
export { createEditorStore, EditorStoreProvider, useEditorStore, useEditorStoreApi, saveStatus } from "./store";
export type { BlockRunState, BlockRunStatus, EditorState, EditorStore, RunSliceState, RunViewStatus, SaveStatus } from "./store";
