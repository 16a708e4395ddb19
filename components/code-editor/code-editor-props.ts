import type { CompletionSource } from "@codemirror/autocomplete";
import type { CodeLanguage } from "./editor-extensions";

export interface CodeEditorProps {
  value: string;
  onChange: (value: string) => void;
  language: CodeLanguage;
  /** The accessible name of the editable area. */
  label: string;
  /** Set on the editable area (`.cm-content`), so tests type into it as into a text box. */
  testId?: string;
  placeholder?: string;
  /** JSON that may instead be plain text with references: only text that starts with `{` or `[` is checked as JSON. */
  jsonOrText?: boolean;
  /** Completion offered while typing, e.g. `<Block.field>` references; tried before the language's own. */
  complete?: CompletionSource;
  /** Marks the box red for a problem its owner found (the JSON syntax is checked here). */
  invalid?: boolean;
  readOnly?: boolean;
  /** Ctrl/Cmd+Enter, e.g. to submit the form the editor sits in (otherwise it adds a line). */
  onModEnter?: () => void;
  /** Height kept while nearly empty; 8 lines for JavaScript, 3 for JSON unless given. */
  minLines?: number;
}
