import "server-only";
import type { AskAnswer, AskAnswerRequest, AskPrompt, IssueDetail } from "@/contract";
import { RequestError } from "@/lib/http/errors";

function typeName(value: unknown): string {
  if (value === null) return "null";
  return Array.isArray(value) ? "array" : typeof value;
}

/** The fields of an answer checked against the ask's declared names and types (all are required). */
function checkedFields(
  prompt: AskPrompt,
  given: Record<string, unknown> | undefined,
  issues: IssueDetail[],
): AskAnswer["fields"] {
  const fields: AskAnswer["fields"] = {};
  const declared = new Map(prompt.fields.map((field) => [field.name, field]));
  for (const name of Object.keys(given ?? {})) {
    if (!declared.has(name)) {
      const known = prompt.fields.map((field) => `"${field.name}"`).join(", ") || "none";
      issues.push({ path: `fields.${name}`, message: `is not a field of this ask (its fields: ${known})` });
    }
  }
  for (const field of prompt.fields) {
    const value = given?.[field.name];
    if (value === undefined || value === null)
      issues.push({ path: `fields.${field.name}`, message: `is required (${field.type})` });
    else if (typeof value !== field.type || (field.type === "number" && !Number.isFinite(value)))
      issues.push({ path: `fields.${field.name}`, message: `must be a ${field.type}, got ${typeName(value)}` });
    else fields[field.name] = value as string | number | boolean;
  }
  return fields;
}

/**
 * A person's answer checked against what the ask offers: a choice it has (required when it has
 * choices), text only when it allows text, and every field with its declared type. Throws
 * `invalid_request` (400) naming each problem and its path, and the valid choices.
 */
export function checkedAnswer(prompt: AskPrompt, request: AskAnswerRequest, answeredBy: string): AskAnswer {
  const issues: IssueDetail[] = [];
  const ids = prompt.choices.map((choice) => choice.id);
  const valid = ids.map((id) => `"${id}"`).join(", ");
  if (request.choice !== undefined && !ids.includes(request.choice))
    issues.push({
      path: "choice",
      message: ids.length
        ? `"${request.choice}" is not one of this ask's choices: ${valid}`
        : "this ask has no choices; leave choice out",
    });
  else if (request.choice === undefined && ids.length > 0)
    issues.push({ path: "choice", message: `is required: one of ${valid}` });
  if (request.text !== undefined && !prompt.allowText)
    issues.push({ path: "text", message: "this ask takes no free text" });
  const fields = checkedFields(prompt, request.fields, issues);
  if (issues.length > 0) {
    const list = issues.map((issue) => `${issue.path}: ${issue.message}`).join("; ");
    throw new RequestError("invalid_request", `The answer does not fit the ask: ${list}`, issues);
  }
  const text = request.text?.trim();
  return {
    choice: request.choice ?? null,
    text: text ? text : null,
    fields,
    answeredBy,
    answeredAt: new Date().toISOString(),
    timedOut: false,
  };
}

/** The answer an ask gets when its deadline passes first. */
export function timedOutAnswer(): AskAnswer {
  return {
    choice: null,
    text: null,
    fields: {},
    answeredBy: null,
    answeredAt: new Date().toISOString(),
    timedOut: true,
  };
}
