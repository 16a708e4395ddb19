import { z } from "zod";
import { askChoiceSchema, askFieldSchema, askHandleOf } from "@/contract";
import { ERROR_HANDLE, OUT_HANDLE, type BlockDefinition, type HandleSpec } from "../types";

/** An ask waits at most this long (30 days) for its answer before it leaves by `timeout`. */
const MAX_TIMEOUT_MS = 30 * 24 * 60 * 60 * 1000;

function uniqueBy<T>(key: (item: T) => string, what: string) {
  return (items: T[], context: z.RefinementCtx) => {
    const seen = new Set<string>();
    items.forEach((item, index) => {
      if (seen.has(key(item)))
        context.addIssue({ code: "custom", path: [index], message: `duplicate ${what} "${key(item)}"` });
      seen.add(key(item));
    });
  };
}

export const askConfigSchema = z.object({
  /** Shown to the person; references allowed (`<Agent.content>`). */
  question: z.string().trim().min(1, "write the question to ask"),
  /** Each choice is an output handle `choice:<id>`; with none, any answer leaves by `out`. */
  choices: z
    .array(askChoiceSchema)
    .max(20, "at most 20 choices")
    .default([])
    .superRefine(uniqueBy((choice) => choice.id, "choice id")),
  /** Whether the answer may carry free text. */
  allowText: z.boolean().default(false),
  /** Typed values the person fills in; all required. */
  fields: z
    .array(askFieldSchema)
    .max(20, "at most 20 fields")
    .default([])
    .superRefine(uniqueBy((field) => field.name, "field name")),
  /** Unanswered this long after it was asked, the ask leaves by its `timeout` handle. */
  timeoutMs: z
    .number()
    .int("must be a whole number of milliseconds")
    .min(1000, "must be at least 1000 (one second)")
    .max(MAX_TIMEOUT_MS, "must be at most 30 days")
    .optional(),
});

export type AskConfig = z.infer<typeof askConfigSchema>;

function parsedConfig(config: unknown): AskConfig | null {
  const parsed = askConfigSchema.safeParse(config);
  return parsed.success ? parsed.data : null;
}

export const askDefinition = {
  type: "ask",
  label: "Ask",
  icon: "MessageCircleQuestion",
  category: "logic",
  description: "Pauses the run to ask a person; each choice is its own path, with an optional timeout path.",
  configSchema: askConfigSchema,
  fields: [
    {
      key: "question",
      label: "Question",
      kind: "prompt",
      placeholder: "Send <Agent.content> to the customer?",
      needs: "Write the question to ask",
    },
    {
      key: "choices",
      label: "Choices",
      kind: "choices",
      help: "Each choice is its own output. With none, any answer leaves by out.",
    },
    { key: "allowText", label: "Allow a free-text answer", kind: "toggle" },
    { key: "fields", label: "Fields", kind: "askFields", help: "Typed values the person fills in." },
    {
      key: "timeoutMs",
      label: "Timeout (ms)",
      kind: "number",
      help: "Unanswered this long, the run goes on along the timeout output.",
    },
  ],
  outputs: [
    { path: "choice", type: "string", description: "The id of the choice made (null without choices or on timeout)" },
    { path: "text", type: "string", description: "The free text given, or null" },
    { path: "fields", type: "object", description: "The typed fields, by name" },
    { path: "answeredBy", type: "string", description: "Who answered (null on timeout)" },
    { path: "answeredAt", type: "string" },
    { path: "timedOut", type: "boolean" },
  ],
  acceptsInput: true,
  sourceHandles: (block) => {
    const config = parsedConfig(block.config);
    const choices = config?.choices ?? [];
    const handles: HandleSpec[] =
      choices.length > 0
        ? choices.map((choice) => ({
            id: `choice:${choice.id}`,
            label: choice.label || choice.id,
            variant: "branch" as const,
          }))
        : [OUT_HANDLE];
    if (config?.timeoutMs !== undefined) handles.push({ id: "timeout", label: "timeout", variant: "branch" });
    return [...handles, ERROR_HANDLE];
  },
  routing: "all",
  takenHandles: (block, output) => {
    const hasChoices = (parsedConfig(block.config)?.choices.length ?? 0) > 0;
    return [
      askHandleOf(
        { choice: typeof output.choice === "string" ? output.choice : null, timedOut: output.timedOut === true },
        hasChoices,
      ),
    ];
  },
  waitsForPeople: true,
  docs: {
    config: "`question, choices?, allowText?, fields?, timeoutMs?` (section 10)",
    output: "`choice, text, fields, answeredBy, answeredAt` (`timedOut` when the timeout handle was taken)",
  },
} satisfies BlockDefinition<typeof askConfigSchema>;
