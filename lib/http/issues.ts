import "server-only";
import type { IssueDetail } from "@/contract";

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
