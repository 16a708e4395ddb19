import {
  autocompletion,
  closeBrackets,
  closeBracketsKeymap,
  type CompletionContext,
  type CompletionResult,
  type CompletionSource,
} from "@codemirror/autocomplete";
import { defaultKeymap, history, historyKeymap } from "@codemirror/commands";
import { javascript, localCompletionSource } from "@codemirror/lang-javascript";
import { json } from "@codemirror/lang-json";
import {
  globalCompletion,
  localCompletionSource as pythonLocalCompletionSource,
  python,
} from "@codemirror/lang-python";
import { bracketMatching, indentOnInput, syntaxHighlighting } from "@codemirror/language";
import { lintGutter, linter, lintKeymap } from "@codemirror/lint";
import { EditorState, Prec, type Extension } from "@codemirror/state";
import {
  drawSelection,
  EditorView,
  highlightActiveLine,
  highlightActiveLineGutter,
  keymap,
  lineNumbers,
  placeholder,
} from "@codemirror/view";
import { classHighlighter } from "@lezer/highlight";
import { describeJsonProblem, jsonProblemToShow } from "./json-problem";
import { referenceHighlight } from "./reference-highlight";

export type CodeLanguage = "javascript" | "python" | "json";

export interface EditorSetup {
  language: CodeLanguage;
  /** JSON that may instead be plain text with references: only text that starts like JSON is checked. */
  jsonOrText?: boolean;
  /** Completion (references, environment names) tried before the language's own. */
  complete?: CompletionSource;
  placeholder?: string;
  label: string;
  testId?: string;
  /** Height the box keeps while nearly empty. */
  minLines: number;
  invalid: () => boolean;
  /** Ctrl/Cmd+Enter: true when it was handled (a form submitted). */
  modEnter: () => boolean;
}

/** Everything the editor does except the theme and whether it is editable, which change while it is open. */
export function editorExtensions(setup: EditorSetup): Extension[] {
  const isJson = setup.language === "json";
  const problemOf = (state: EditorState) =>
    isJson ? jsonProblemToShow(state.doc.toString(), setup.jsonOrText === true) : null;
  const sources: CompletionSource[] = [];
  if (setup.complete) sources.push(setup.complete);
  if (setup.language === "javascript") sources.push(localCompletionSource);
  if (setup.language === "python") sources.push(pythonNames);
  return [
    lineNumbers(),
    highlightActiveLineGutter(),
    highlightActiveLine(),
    history(),
    drawSelection(),
    indentOnInput(),
    bracketMatching(),
    closeBrackets(),
    isJson ? json() : setup.language === "python" ? python() : javascript(),
    syntaxHighlighting(classHighlighter),
    referenceHighlight,
    sources.length > 0 ? autocompletion({ override: [firstAnswer(sources)] }) : [],
    isJson
      ? [
          linter(
            (view) => {
              const problem = problemOf(view.state);
              return problem
                ? [{ from: problem.from, to: problem.to, severity: "error", message: describeJsonProblem(problem) }]
                : [];
            },
            { delay: 250 },
          ),
          lintGutter(),
        ]
      : [],
    Prec.highest(keymap.of([{ key: "Mod-Enter", run: () => setup.modEnter() }])),
    keymap.of([...closeBracketsKeymap, ...defaultKeymap, ...historyKeymap, ...lintKeymap]),
    EditorView.lineWrapping,
    setup.placeholder ? placeholder(setup.placeholder) : [],
    EditorView.contentAttributes.of((view) => ({
      "aria-label": setup.label,
      "aria-multiline": "true",
      "aria-invalid": setup.invalid() || problemOf(view.state) !== null ? "true" : "false",
      ...(setup.testId ? { "data-testid": setup.testId } : {}),
    })),
    EditorView.theme({
      "&": { maxHeight: "24rem" },
      ".cm-scroller": { overflow: "auto" },
      ".cm-content, .cm-gutter": { minHeight: `${setup.minLines * 1.5}em` },
    }),
  ];
}

/** Python: the names the code defines, and Python's builtins and keywords, in one list. */
async function pythonNames(context: CompletionContext): Promise<CompletionResult | null> {
  const local = pythonLocalCompletionSource(context);
  const global = await globalCompletion(context);
  if (!local || !global) return local ?? global;
  return { ...local, from: Math.min(local.from, global.from), options: [...local.options, ...global.options] };
}

/** One source from several: the first that has an answer wins, so a `<` reference list is never mixed with local names. */
function firstAnswer(sources: CompletionSource[]): CompletionSource {
  return async (context) => {
    for (const source of sources) {
      const result = await source(context);
      if (result) return result;
    }
    return null;
  };
}

export function editable(locked: boolean): Extension {
  return [EditorView.editable.of(!locked), EditorState.readOnly.of(locked)];
}
