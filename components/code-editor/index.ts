export { CodeEditor } from "./code-editor";
export type { CodeEditorProps } from "./code-editor-props";
export type { CodeLanguage } from "./editor-extensions";
