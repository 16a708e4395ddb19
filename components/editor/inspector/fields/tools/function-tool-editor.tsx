"use client";

import { CodeEditor } from "@/components/code-editor";
import type { CompletionItem } from "../../../graph/reference-completion";
import { referenceCompletionSource } from "../../../graph/reference-completion-source";
import { CompletionInput } from "../completion-input";
import { codeLanguageOf } from "../code-field";
import { asString, inputClass } from "../field-props";
import { SchemaEditor } from "../json-schema/schema-editor";

const labelClass = "block text-[11px] font-medium text-slate-600";

/**
 * A custom function tool (`run_function`): what the model reads about it, the parameters it
 * passes (a JSON Schema, edited as rows), and the JavaScript or Python that runs in the sandbox
 * with them as `services.inputs`.
 */
export function FunctionToolEditor({
  params,
  onParam,
  testId,
  referenceItems,
  envNames,
}: {
  params: Record<string, unknown>;
  onParam: (name: string, value: unknown) => void;
  testId: string;
  referenceItems: () => CompletionItem[];
  envNames: () => string[];
}) {
  const language = codeLanguageOf(params.language);
  return (
    <div className="space-y-1.5">
      <div>
        <span className={labelClass}>Description the model reads</span>
        <CompletionInput
          value={asString(params.description)}
          onChange={(text) => onParam("description", text)}
          referenceItems={referenceItems}
          envNames={envNames}
          label="Function description"
          testId={`${testId}-description`}
          placeholder="What it does and when to call it"
        />
      </div>
      <div>
        <span className={labelClass}>Parameters the model passes</span>
        <SchemaEditor
          value={params.parameters}
          onChange={(schema) => onParam("parameters", schema)}
          testId={`${testId}-parameters`}
          label="Parameters"
          referenceItems={referenceItems}
          envNames={envNames}
        />
      </div>
      <label className="block">
        <span className={labelClass}>Language</span>
        <select
          value={language}
          aria-label="Function language"
          data-testid={`${testId}-language`}
          className={inputClass}
          onChange={(event) => onParam("language", event.target.value === "python" ? "python" : undefined)}
        >
          <option value="javascript">JavaScript</option>
          <option value="python">Python</option>
        </select>
      </label>
      <div>
        <span className={labelClass}>
          Code ({language === "python" ? "Python" : "JavaScript"}, sandboxed: the arguments are services.inputs; return
          the answer)
        </span>
        <CodeEditor
          key={language}
          language={language}
          value={asString(params.code)}
          onChange={(text) => onParam("code", text)}
          complete={referenceCompletionSource(referenceItems, envNames)}
          label="Function code"
          testId={`${testId}-code`}
        />
      </div>
    </div>
  );
}
