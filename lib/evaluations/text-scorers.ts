import "server-only";
import Ajv from "ajv";
import { Ajv2020 } from "ajv/dist/2020.js";
import type { Scorer } from "@/contract";

/** What a scorer is given about one case. */
export interface CaseOutcome {
  input: Record<string, unknown>;
  /** The case's expected output; undefined when it has none. */
  expected: unknown;
  /** The run's output (null when the run failed). */
  output: unknown;
  /** The run's cost in US dollars; null when unpriced. */
  cost: number | null;
  durationMs: number | null;
}

/** A scorer's answer. */
export interface ScoreResult {
  score: number;
  reason: string;
}

type LocalScorer = Extract<
  Scorer,
  { type: "exact" | "contains" | "regex" | "jsonSchema" | "numeric" | "maxCost" | "maxDurationMs" }
>;

/** The scorers that need nothing but the case: answered here, at no cost. */
export const LOCAL_SCORER_TYPES = new Set<Scorer["type"]>([
  "exact",
  "contains",
  "regex",
  "jsonSchema",
  "numeric",
  "maxCost",
  "maxDurationMs",
]);

export function isLocalScorer(scorer: Scorer): scorer is LocalScorer {
  return LOCAL_SCORER_TYPES.has(scorer.type);
}

let draft07: Ajv | undefined;
let draft2020: Ajv2020 | undefined;
/**
 * The validator for a schema: draft 2020-12 when its `$schema` says so, else draft-07 (what the
 * agent's response formats use). Schemas are compiled once each and cached by ajv.
 */
export function schemaValidator(schema: Record<string, unknown>): Ajv | Ajv2020 {
  if (typeof schema.$schema === "string" && schema.$schema.includes("2020-12"))
    return (draft2020 ??= new Ajv2020({ strict: false, allErrors: true }));
  return (draft07 ??= new Ajv({ strict: false, allErrors: true }));
}

/** The value at a dotted path (`answer`, `items.0.name`); the whole value for no path. */
export function pick(value: unknown, field: string | undefined): unknown {
  if (!field) return value;
  let current: unknown = value;
  for (const key of field.split(".")) {
    if (current === null || typeof current !== "object" || !Object.hasOwn(current, key)) return undefined;
    current = (current as Record<string, unknown>)[key];
  }
  return current;
}

/** A value as text: strings as they are, anything else as JSON. */
export function textOf(value: unknown): string {
  if (typeof value === "string") return value;
  if (value === undefined) return "";
  return JSON.stringify(value) ?? "";
}

function clip(text: string, length = 60): string {
  return text.length > length ? `${text.slice(0, length)}…` : text;
}

/** JSON with keys sorted, so two objects equal but for key order compare equal. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(",")}]`;
  if (value !== null && typeof value === "object")
    return `{${Object.keys(value)
      .sort()
      .map((key) => `${JSON.stringify(key)}:${canonical((value as Record<string, unknown>)[key])}`)
      .join(",")}}`;
  return JSON.stringify(value) ?? "null";
}

const pass = (reason: string): ScoreResult => ({ score: 1, reason });
const fail = (reason: string): ScoreResult => ({ score: 0, reason });
const NO_EXPECTED = fail("the case has no expected output to compare with");

/** Scores one case with a scorer that needs nothing else. */
export function scoreLocally(scorer: LocalScorer, outcome: CaseOutcome): ScoreResult {
  switch (scorer.type) {
    case "exact": {
      if (outcome.expected === undefined) return NO_EXPECTED;
      const output = pick(outcome.output, scorer.field);
      const structured = typeof output !== "string" && typeof outcome.expected !== "string";
      const [a, b] = structured
        ? [canonical(output), canonical(outcome.expected)]
        : [textOf(output).trim(), textOf(outcome.expected).trim()];
      const same = scorer.caseSensitive ? a === b : a.toLowerCase() === b.toLowerCase();
      return same ? pass("the output equals the expected one") : fail(`"${clip(a)}" is not "${clip(b)}"`);
    }
    case "contains": {
      const wanted = scorer.value ?? (outcome.expected === undefined ? undefined : textOf(outcome.expected));
      if (wanted === undefined) return NO_EXPECTED;
      const text = textOf(pick(outcome.output, scorer.field));
      const found = scorer.caseSensitive ? text.includes(wanted) : text.toLowerCase().includes(wanted.toLowerCase());
      return found
        ? pass(`the output contains "${clip(wanted)}"`)
        : fail(`the output does not contain "${clip(wanted)}"`);
    }
    case "regex": {
      const text = textOf(pick(outcome.output, scorer.field));
      const matches = new RegExp(scorer.pattern, scorer.flags).test(text);
      return matches
        ? pass(`the output matches /${clip(scorer.pattern)}/`)
        : fail(`the output does not match /${clip(scorer.pattern)}/`);
    }
    case "jsonSchema": {
      let value = pick(outcome.output, scorer.field);
      // A model's JSON often arrives as text: it is read as JSON before it is checked.
      if (typeof value === "string") {
        try {
          value = JSON.parse(value);
        } catch {
          // Checked as the text it is.
        }
      }
      const validator = schemaValidator(scorer.schema);
      const validate = validator.compile(scorer.schema);
      if (validate(value)) return pass("the output is valid against the schema");
      return fail(`the output is not valid: ${validator.errorsText(validate.errors, { dataVar: "output" })}`);
    }
    case "numeric": {
      if (outcome.expected === undefined) return NO_EXPECTED;
      const actual = Number(textOf(pick(outcome.output, scorer.field)).trim());
      const expected = Number(textOf(outcome.expected).trim());
      if (!Number.isFinite(expected))
        return fail(`the expected output "${clip(textOf(outcome.expected))}" is not a number`);
      if (!Number.isFinite(actual))
        return fail(`the output "${clip(textOf(pick(outcome.output, scorer.field)))}" is not a number`);
      const distance = Math.abs(actual - expected);
      if (distance <= scorer.tolerance) return pass(`${actual} is within ${scorer.tolerance} of ${expected}`);
      // Beyond the tolerance the score falls with the relative error: 10% off scores 0.9.
      const relative = (distance - scorer.tolerance) / Math.max(Math.abs(expected), Number.EPSILON);
      const score = Math.max(0, 1 - relative);
      return { score, reason: `${actual} is ${distance} from ${expected} (${(relative * 100).toFixed(1)}% off)` };
    }
    case "maxCost":
      if (outcome.cost === null) return fail("the run's cost is unknown (a model has no price)");
      return outcome.cost <= scorer.maxCost + 1e-12
        ? pass(`the run cost $${outcome.cost} (at most $${scorer.maxCost})`)
        : fail(`the run cost $${outcome.cost}, over $${scorer.maxCost}`);
    case "maxDurationMs":
      if (outcome.durationMs === null) return fail("the run's duration is unknown");
      return outcome.durationMs <= scorer.maxDurationMs
        ? pass(`the run took ${outcome.durationMs} ms (at most ${scorer.maxDurationMs})`)
        : fail(`the run took ${outcome.durationMs} ms, over ${scorer.maxDurationMs}`);
  }
}
