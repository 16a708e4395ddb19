import "server-only";
import type { z } from "zod";
import type { IssueDetail } from "@/contract";

function zodPath(path: ReadonlyArray<PropertyKey>): string {
  return path.reduce<string>((text, part) => (typeof part === "number" ? `${text}[${part}]` : text ? `${text}.${String(part)}` : String(part)), "");
}

/** zod's issues as the contract's error details: `blocks[1].id`, `topK`, or "" for the body itself. */
export function zodIssues(error: z.ZodError): IssueDetail[] {
  return error.issues.map((issue) => ({ path: zodPath(issue.path), message: issue.message }));
}

/**
 * The message of a refusal: `The search is invalid: topK: Too small (and 1 more problem)`. The
 * first problem is named so a reader of the message alone knows where to look; `details` hold all.
 */
export function describeIssues(subject: string, issues: IssueDetail[]): string {
  const first = issues[0];
  if (!first) return `${subject} is invalid.`;
  const more = issues.length > 1 ? ` (and ${issues.length - 1} more problem${issues.length > 2 ? "s" : ""})` : "";
  return `${subject} is invalid: ${first.path ? `${first.path}: ` : ""}${first.message}${more}`;
}
