import { EditorView } from "@codemirror/view";
import type { ColorScheme } from "@/components/theme/use-color-scheme";

/**
 * The editor's light and dark looks, in the app's slate and indigo. Tokens carry the stable
 * `tok-*` classes of @lezer/highlight's classHighlighter; their colours are set here per scheme
 * (`&light` / `&dark` follow the `dark` flag of the theme in force).
 */
const tokenColors = EditorView.baseTheme({
  "&light .tok-keyword, &light .tok-operator": { color: "#7c3aed" },
  "&light .tok-string": { color: "#047857" },
  "&light .tok-string2": { color: "#b45309" },
  "&light .tok-number, &light .tok-bool, &light .tok-literal, &light .tok-atom": { color: "#1d4ed8" },
  "&light .tok-propertyName": { color: "#9d174d" },
  "&light .tok-comment": { color: "#64748b", fontStyle: "italic" },
  "&light .tok-variableName.tok-definition": { color: "#0f172a", fontWeight: "600" },
  "&light .cm-reference": { color: "#4338ca", backgroundColor: "#e0e7ff", borderRadius: "3px" },
  "&dark .tok-keyword, &dark .tok-operator": { color: "#c4b5fd" },
  "&dark .tok-string": { color: "#6ee7b7" },
  "&dark .tok-string2": { color: "#fcd34d" },
  "&dark .tok-number, &dark .tok-bool, &dark .tok-literal, &dark .tok-atom": { color: "#93c5fd" },
  "&dark .tok-propertyName": { color: "#f9a8d4" },
  "&dark .tok-comment": { color: "#94a3b8", fontStyle: "italic" },
  "&dark .tok-variableName.tok-definition": { color: "#f1f5f9", fontWeight: "600" },
  "&dark .cm-reference": { color: "#c7d2fe", backgroundColor: "#312e81", borderRadius: "3px" },
  ".cm-reference .tok-string, .cm-reference .tok-operator, .cm-reference .tok-propertyName": { color: "inherit" },
});

const shared = {
  "&": { fontSize: "12px" },
  "&.cm-focused": { outline: "none" },
  ".cm-scroller": { fontFamily: "ui-monospace, SFMono-Regular, Menlo, monospace", lineHeight: "1.5" },
  ".cm-content": { padding: "4px 0" },
  ".cm-gutters": { borderRight: "none" },
  ".cm-tooltip-autocomplete ul li": { fontFamily: "ui-monospace, SFMono-Regular, Menlo, monospace", fontSize: "12px" },
  ".cm-completionDetail": { marginLeft: "1em", fontStyle: "normal" },
};

const light = EditorView.theme(
  {
    ...shared,
    "&": { ...shared["&"], color: "#0f172a", backgroundColor: "#ffffff" },
    ".cm-gutters": { ...shared[".cm-gutters"], backgroundColor: "#f8fafc", color: "#94a3b8" },
    ".cm-activeLineGutter": { backgroundColor: "#e2e8f0" },
    ".cm-activeLine": { backgroundColor: "#f1f5f9" },
    ".cm-placeholder": { color: "#94a3b8" },
    ".cm-completionDetail": { ...shared[".cm-completionDetail"], color: "#64748b" },
  },
  { dark: false },
);

const dark = EditorView.theme(
  {
    ...shared,
    "&": { ...shared["&"], color: "#e2e8f0", backgroundColor: "#0f172a" },
    ".cm-gutters": { ...shared[".cm-gutters"], backgroundColor: "#1e293b", color: "#64748b" },
    ".cm-activeLineGutter": { backgroundColor: "#334155" },
    ".cm-activeLine": { backgroundColor: "#1e293b" },
    ".cm-cursor, .cm-dropCursor": { borderLeftColor: "#e2e8f0" },
    "&.cm-focused > .cm-scroller > .cm-selectionLayer .cm-selectionBackground, .cm-selectionBackground": {
      backgroundColor: "#3730a3",
    },
    ".cm-placeholder": { color: "#64748b" },
    ".cm-tooltip": { backgroundColor: "#1e293b", color: "#e2e8f0", border: "1px solid #334155" },
    ".cm-tooltip-autocomplete ul li[aria-selected]": { backgroundColor: "#4338ca", color: "#ffffff" },
    ".cm-completionDetail": { ...shared[".cm-completionDetail"], color: "#94a3b8" },
  },
  { dark: true },
);

export function editorTheme(scheme: ColorScheme) {
  return [scheme === "dark" ? dark : light, tokenColors];
}
