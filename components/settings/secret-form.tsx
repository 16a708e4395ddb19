"use client";

import { Save } from "lucide-react";
import { useEffect, useRef, useState } from "react";
import { SECRET_NAME_RULE, secretNameSchema } from "@/contract";
import { FIELD_INPUT_CLASS, FormField } from "@/components/ui/form-field";

interface SecretFormProps {
  /** Names stored already: saving one of them replaces its value. */
  existing: ReadonlySet<string>;
  /** Name chosen from the list to replace: a new object on every choice, even of the same name. */
  chosen: { name: string } | null;
  onSave(name: string, value: string): Promise<boolean>;
}

/**
 * Name and value of a secret. The name is checked against the rule before sending; the value
 * field is masked, never filled in by the browser, and emptied once saved.
 */
export function SecretForm({ existing, chosen, onSave }: SecretFormProps) {
  const [name, setName] = useState("");
  const [value, setValue] = useState("");
  const [problem, setProblem] = useState<string | null>(null);
  const [pending, setPending] = useState(false);
  const [lastChosen, setLastChosen] = useState(chosen);
  const valueField = useRef<HTMLInputElement>(null);
  // Replace from the list: take its name, then type the new value.
  if (chosen !== lastChosen) {
    setLastChosen(chosen);
    if (chosen) {
      setName(chosen.name);
      setProblem(null);
    }
  }
  useEffect(() => {
    if (chosen) valueField.current?.focus();
  }, [chosen]);
  const replacing = existing.has(name.trim());

  async function submit() {
    const trimmed = name.trim();
    const parsed = secretNameSchema.safeParse(trimmed);
    if (!parsed.success) return setProblem(`The name ${SECRET_NAME_RULE}.`);
    if (!value) return setProblem("Enter the value to store.");
    setProblem(null);
    setPending(true);
    const saved = await onSave(parsed.data, value);
    setPending(false);
    if (saved) {
      setName("");
      setValue("");
    }
  }

  return (
    <form
      className="space-y-2 rounded border border-slate-200 bg-white p-3"
      aria-label="Store a secret"
      onSubmit={(event) => {
        event.preventDefault();
        void submit();
      }}
    >
      <div className="flex flex-wrap items-end gap-3">
        <FormField label="Name" className="min-w-48 flex-1">
          <input
            className={`${FIELD_INPUT_CLASS} font-mono`}
            placeholder="e.g. OPENAI_API_KEY"
            maxLength={128}
            autoCapitalize="characters"
            autoComplete="off"
            spellCheck={false}
            aria-invalid={problem !== null}
            aria-describedby="secret-name-rule"
            value={name}
            onChange={(event) => setName(event.target.value)}
          />
        </FormField>
        <FormField label="Value" className="min-w-48 flex-1">
          <input
            ref={valueField}
            type="password"
            autoComplete="off"
            // Password managers would offer to save it, or fill a password in.
            data-1p-ignore
            data-lpignore="true"
            className={`${FIELD_INPUT_CLASS} font-mono`}
            value={value}
            onChange={(event) => setValue(event.target.value)}
          />
        </FormField>
        <button type="submit" className="btn-primary" disabled={pending || !name.trim() || !value}>
          <Save size={14} aria-hidden /> {pending ? "Saving…" : replacing ? "Replace" : "Save secret"}
        </button>
      </div>
      <p id="secret-name-rule" className="text-xs text-slate-500">
        {replacing ? `${name.trim()} exists: saving replaces its value. ` : ""}Names {SECRET_NAME_RULE}.
      </p>
      {problem && (
        <p role="alert" className="text-xs text-red-700" data-testid="secret-problem">
          {problem}
        </p>
      )}
    </form>
  );
}
