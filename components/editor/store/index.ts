export { createEditorStore, type EditorState, type EditorStore } from "./editor-store";
export { EditorStoreProvider, useEditorStore, useEditorStoreApi } from "./editor-store-context";
export type { BlockRunState, BlockRunStatus, RunSliceState, RunViewStatus } from "./run-slice";
export { saveStatus, type SaveStatus } from "./save-slice";
