import type { IssueDetail } from "@/contract";
import { getBlockDefinition, isMissingValue } from "@/blocks";
import { touchedKey, type AttentionState } from "../store";
import { blockIssuePrefix } from "../inspector/issue-paths";
import type { IssuesByBlock } from "./issues-by-block";

/**
 * Validation as people meet it: which of a block's issues are only hints (a fresh block's empty
 * required field, untouched, before any run was tried) and which are problems, and the list of
 * what to fix beside Run, each item naming the block and the field by its inspector label.
 */

export interface BlockLike {
  id: string;
  data: { type: string; name: string; config: Readonly<Record<string, unknown>> };
}

/** The top-level config field an issue is about (`config.branches[0].id` -> `branches`), or null. */
export function issueFieldKey(issue: IssueDetail): string | null {
  if (!issue.path.startsWith(blockIssuePrefix)) return null;
  return /^[^.[\]]+/.exec(issue.path.slice(blockIssuePrefix.length))?.[0] ?? null;
}

/**
 * A hint: the issue is the field itself being empty (a required field the definition says what it
 * needs), nobody has touched that field, and no run was tried since the block was added.
 */
export function isHint(
  block: BlockLike,
  issue: IssueDetail,
  attention: Pick<AttentionState, "touched" | "runAttemptedFor">,
): boolean {
  if (attention.runAttemptedFor[block.id]) return false;
  const key = issueFieldKey(issue);
  if (!key || issue.path !== `${blockIssuePrefix}${key}`) return false;
  if (attention.touched[touchedKey(block.id, key)]) return false;
  const field = getBlockDefinition(block.data.type)?.fields.find((candidate) => candidate.key === key);
  return Boolean(field?.needs) && isMissingValue(block.data.config[key]);
}

/** The message without what the place it is shown already says: the block's name, then the field's label. */
export function issueText(message: string, fieldLabel?: string | null): string {
  const withoutBlock = message.replace(/^Block '[^']*': /, "");
  return fieldLabel && withoutBlock.startsWith(`${fieldLabel}: `)
    ? withoutBlock.slice(fieldLabel.length + 2)
    : withoutBlock;
}

/**
 * An issue on its block's node: what an empty field needs says enough alone ("Write the routing
 * instructions"); any other names its field ("Temperature: must be at most 2").
 */
export function nodeIssueText(blockType: string, issue: IssueDetail): string {
  const key = issueFieldKey(issue);
  const field = key ? getBlockDefinition(blockType)?.fields.find((candidate) => candidate.key === key) : undefined;
  const text = issueText(issue.message, field?.label);
  return field?.needs && text === field.needs ? text : issueText(issue.message);
}

export interface FixItem {
  /** The block to select, or null for a problem of the workflow as a whole. */
  blockId: string | null;
  blockName: string | null;
  /** The inspector field to focus, when the issue is about one. */
  fieldKey: string | null;
  fieldLabel: string | null;
  text: string;
  hint: boolean;
}

/** What to fix before the workflow can run: per block in canvas order, then the workflow's own. */
export function fixListItems(
  blocks: ReadonlyArray<BlockLike>,
  issues: IssuesByBlock,
  attention: Pick<AttentionState, "touched" | "runAttemptedFor">,
): FixItem[] {
  const items: FixItem[] = [];
  const listed = new Set<string>();
  for (const block of blocks) {
    const definition = getBlockDefinition(block.data.type);
    for (const issue of issues.byBlock[block.id] ?? []) {
      const fieldKey = issueFieldKey(issue);
      const fieldLabel = (fieldKey && definition?.fields.find((field) => field.key === fieldKey)?.label) || null;
      items.push({
        blockId: block.id,
        blockName: block.data.name,
        fieldKey,
        fieldLabel,
        text: issueText(issue.message, fieldLabel),
        hint: isHint(block, issue, attention),
      });
      listed.add(issue.message);
    }
  }
  for (const issue of issues.workflow)
    if (!listed.has(issue.message))
      items.push({
        blockId: null,
        blockName: null,
        fieldKey: null,
        fieldLabel: null,
        text: issue.message,
        hint: false,
      });
  return items;
}
