import type { z } from "zod";
import type { IssueDetail } from "@/contract";
import type { BlockDefinition, FieldHint } from "./types";

/**
 * A block config's problems in the words people see: fields by their inspector label, a missing
 * required field by its definition's `needs` ("Write the routing instructions"), and zod's own
 * default texts ("Invalid input: expected string, received undefined") replaced by plain ones.
 * The messages a schema author wrote (`.min(1, "choose a model")`) are kept as written.
 */

type RawIssue = z.core.$ZodRawIssue;

const TYPE_WORDS: Readonly<Record<string, string>> = {
  string: "text",
  number: "a number",
  int: "a whole number",
  boolean: "on or off",
  array: "a list",
  object: "an object",
  record: "an object",
};

function describeType(type: string): string {
  return TYPE_WORDS[type] ?? type;
}

function quantity(origin: unknown, bound: number | bigint): string {
  const count = Number(bound);
  if (origin === "string") return `${count} character${count === 1 ? "" : "s"}`;
  if (origin === "array" || origin === "set") return `${count} item${count === 1 ? "" : "s"}`;
  return String(count);
}

/** zod's default text for an issue no schema author worded, in plain words. */
export function plainIssueMessage(issue: RawIssue): string {
  switch (issue.code) {
    case "invalid_type":
      return issue.input === undefined || issue.input === null
        ? "is required"
        : `must be ${describeType(String(issue.expected))}`;
    case "too_small":
      if ((issue.origin === "string" || issue.origin === "array") && Number(issue.minimum) === 1)
        return "must not be empty";
      return `must be at least ${quantity(issue.origin, issue.minimum)}`;
    case "too_big":
      return `must be at most ${quantity(issue.origin, issue.maximum)}`;
    case "invalid_value":
      return `must be one of ${issue.values.map((value) => JSON.stringify(value)).join(", ")}`;
    case "invalid_format":
      return issue.format === "regex" ? "is not in the expected form" : `must be a valid ${issue.format}`;
    case "not_multiple_of":
      return `must be a multiple of ${String(issue.divisor)}`;
    case "unrecognized_keys":
      return `has fields it does not know: ${issue.keys.join(", ")}`;
    case "invalid_union":
      return "is not in any of the accepted forms";
    default:
      return "is not valid";
  }
}

/**
 * "userPrompt" -> "user prompt": a config key no field hint labels, still readable. A key that
 * does not start lowercase is a name someone typed (a header, `Host`) and is kept as written.
 */
function keyWords(key: string): string {
  if (!/^[a-z][A-Za-z0-9]*$/.test(key)) return key;
  return key.replace(/([a-z0-9])([A-Z])/g, "$1 $2").toLowerCase();
}

function capitalise(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

function fieldOf(definition: Pick<BlockDefinition, "fields">, key: string): FieldHint | undefined {
  return definition.fields.find((field) => field.key === key);
}

const PATH_SEGMENT = /([^.[\]]+)|\[(\d+)\]/g;

/**
 * A config path as people name it: `prompt` -> "Routing instructions", `branches[0].expression`
 * -> "Branches, item 1, expression". The path itself stays in `details[].path` for programs.
 */
export function describeConfigPath(definition: Pick<BlockDefinition, "fields">, path: string): string {
  const segments = [...path.matchAll(PATH_SEGMENT)].map((match) =>
    match[2] !== undefined ? Number(match[2]) : match[1]!,
  );
  const [first, ...rest] = segments;
  if (first === undefined) return "";
  const head =
    typeof first === "string"
      ? (fieldOf(definition, first)?.label ?? capitalise(keyWords(first)))
      : `Item ${first + 1}`;
  return [
    head,
    ...rest.map((segment) => (typeof segment === "number" ? `item ${segment + 1}` : keyWords(segment))),
  ].join(", ");
}

/** Nothing there yet: absent, blank text, or an empty list. */
export function isMissingValue(value: unknown): boolean {
  if (value === undefined || value === null) return true;
  if (typeof value === "string") return value.trim() === "";
  return Array.isArray(value) && value.length === 0;
}

/** The fields a block of this type cannot do without: their schema refuses an absent value. */
export function requiredFields(definition: BlockDefinition): FieldHint[] {
  const shape = (definition.configSchema as { shape?: Record<string, z.ZodType> }).shape ?? {};
  return definition.fields.filter((field) => {
    const schema = shape[field.key];
    return schema !== undefined && !schema.safeParse(undefined).success;
  });
}

function pathText(path: ReadonlyArray<PropertyKey>): string {
  return path.reduce<string>(
    (text, part) => (typeof part === "number" ? `${text}[${part}]` : text ? `${text}.${String(part)}` : String(part)),
    "",
  );
}

/**
 * Parses a block's config with plain-words messages. An issue on a top-level field with nothing
 * in it says what the field needs (its `needs`); paths stay as the contract writes them.
 */
export function parseBlockConfig<Schema extends z.ZodType>(
  definition: BlockDefinition<Schema>,
  config: unknown,
): { ok: true; value: z.output<Schema> } | { ok: false; issues: IssueDetail[] } {
  const parsed = definition.configSchema.safeParse(config ?? {}, { error: plainIssueMessage });
  if (parsed.success) return { ok: true, value: parsed.data };
  const record = (config ?? {}) as Record<string, unknown>;
  const seen = new Set<string>();
  const issues: IssueDetail[] = [];
  for (const issue of parsed.error.issues) {
    const path = pathText(issue.path);
    const field = issue.path.length === 1 ? fieldOf(definition, String(issue.path[0])) : undefined;
    const needs = field?.needs && isMissingValue(record[field.key]) ? field.needs : undefined;
    const message = needs ?? issue.message;
    // A missing field can trip several checks (type, then a refinement); one line says it.
    if (seen.has(`${path}\n${message}`)) continue;
    seen.add(`${path}\n${message}`);
    issues.push({ path, message });
  }
  return { ok: false, issues };
}
