import "server-only";
import { OFFLINE_EMBEDDER_ID, type IssueDetail, type Scorer } from "@/contract";
import { isTrellisError } from "@/executor";
import { RequestError } from "@/lib/http/errors";
import type { ScoringKit } from "./scoring-tools";
import { schemaValidator } from "./text-scorers";

/** Whether a workflow is the workspace's (a scoring workflow must be). */
export type WorkflowExists = (workflowId: string) => Promise<boolean>;

/**
 * Everything about a suite's scorers that can be wrong before any case runs: a regular expression
 * that does not compile, a JSON Schema that is not one, a judge or embedding model without its key
 * (naming the key to set), a scoring workflow not in the workspace. Checked when a suite is saved
 * and again when an evaluation starts (a key may have been removed since), so nothing runs, and
 * nothing is spent, for a suite that would fail on every case.
 */
export async function checkScorers(
  scorers: readonly Scorer[],
  kit: () => Promise<ScoringKit>,
  workflowExists: WorkflowExists,
): Promise<void> {
  const problems: IssueDetail[] = [];
  let tools: ScoringKit | undefined;
  const tool = async () => (tools ??= await kit());
  for (const [index, scorer] of scorers.entries()) {
    const at = (field: string) => `scorers[${index}].${field}`;
    switch (scorer.type) {
      case "regex":
        try {
          new RegExp(scorer.pattern, scorer.flags);
        } catch (error) {
          problems.push({ path: at("pattern"), message: `is not a valid regular expression: ${messageOf(error)}` });
        }
        break;
      case "jsonSchema": {
        const validator = schemaValidator(scorer.schema);
        try {
          if (!validator.validateSchema(scorer.schema))
            problems.push({
              path: at("schema"),
              message: `is not a valid JSON Schema: ${validator.errorsText(validator.errors, { dataVar: "schema" })}`,
            });
          else validator.compile(scorer.schema);
        } catch (error) {
          problems.push({ path: at("schema"), message: `is not a usable JSON Schema: ${messageOf(error)}` });
        }
        break;
      }
      case "judge":
        try {
          (await tool()).models.resolve(scorer.model);
        } catch (error) {
          if (!isTrellisError(error)) throw error;
          problems.push({ path: at("model"), message: error.message });
        }
        break;
      case "similarity":
        if (scorer.model === undefined || scorer.model === OFFLINE_EMBEDDER_ID) break;
        try {
          (await tool()).embedder(scorer.model);
        } catch (error) {
          if (!isTrellisError(error)) throw error;
          problems.push({ path: at("model"), message: error.message });
        }
        break;
      case "workflow":
        if (!(await workflowExists(scorer.workflowId)))
          problems.push({
            path: at("workflowId"),
            message: `names no workflow of this workspace ("${scorer.workflowId}")`,
          });
        break;
      default:
        break;
    }
  }
  if (problems.length > 0) {
    const first = problems[0]!;
    throw new RequestError(
      "invalid_request",
      `The suite's scorers cannot run: ${first.path} ${first.message}`,
      problems,
    );
  }
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
