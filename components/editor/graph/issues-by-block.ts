import type { WorkflowDocument, IssueDetail } from "@/contract";

export interface IssuesByBlock {
  byBlock: Record<string, IssueDetail[]>;
  workflow: IssueDetail[];
  /** The only issues are models without a key on blocks a test run answers from their recorded answers (model-key-issues.ts). */
  testRunAllowed?: boolean;
}

const BLOCK_PATH = /^blocks\[(\d+)\](?:\.(.*))?$/;
const EDGE_PATH = /^edges\[(\d+)\]/;

/**
 * Files the validator's document-wide issues (`blocks[3].config.model`, `edges[2].target`) under
 * the block they concern, with paths relative to that block (`config.model`). Edge problems show
 * on the edge's source block as well as in the workflow list.
 */
export function issuesByBlock(document: WorkflowDocument, issues: ReadonlyArray<IssueDetail>): IssuesByBlock {
  const result: IssuesByBlock = { byBlock: {}, workflow: [] };
  const add = (blockId: string, issue: IssueDetail) => (result.byBlock[blockId] ??= []).push(issue);
  for (const issue of issues) {
    const blockMatch = BLOCK_PATH.exec(issue.path);
    const block = blockMatch ? document.blocks[Number(blockMatch[1])] : undefined;
    if (block) {
      add(block.id, { path: blockMatch?.[2] ?? "", message: issue.message });
      continue;
    }
    result.workflow.push(issue);
    const edgeMatch = EDGE_PATH.exec(issue.path);
    const edge = edgeMatch ? document.edges[Number(edgeMatch[1])] : undefined;
    if (edge && document.blocks.some((candidate) => candidate.id === edge.source))
      add(edge.source, { path: "", message: issue.message });
  }
  return result;
}

/** Issue messages name their block ("Block 'Agent': ..."); beside the field that is redundant. */
export function withoutBlockPrefix(message: string): string {
  return message.replace(/^Block '[^']*': /, "");
}

/** Whether two issue maps say the same, so unchanged nodes keep their arrays and skip re-rendering. */
export function sameIssues(
  a: ReadonlyArray<IssueDetail> | undefined,
  b: ReadonlyArray<IssueDetail> | undefined,
): boolean {
  if (a === b) return true;
  if (!a || !b || a.length !== b.length) return false;
  return a.every((issue, index) => issue.path === b[index]!.path && issue.message === b[index]!.message);
}
