import "server-only";
import type { IssueDetail } from "@/contract";

/**
 * The message of a refusal: `The search is invalid: topK: Too small (and 1 more problem)`. The
 * first problem is named so a reader of the message alone knows where to look; `details` hold all.
 * A workflow's validation issues already name their block and field in people's words
 * (`Block 'Router': Routing instructions: ...`), so they are told without the path
 * (`withPaths: false`); the path stays in `details` for programs.
 */
export function describeIssues(subject: string, issues: IssueDetail[], options: { withPaths?: boolean } = {}): string {
  const first = issues[0];
  if (!first) return `${subject} is invalid.`;
  const more = issues.length > 1 ? ` (and ${issues.length - 1} more problem${issues.length > 2 ? "s" : ""})` : "";
  const where = first.path && options.withPaths !== false ? `${first.path}: ` : "";
  return `${subject} is invalid: ${where}${first.message}${more}`;
}
