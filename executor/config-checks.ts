import type { IssueDetail } from "@/contract";
import { isTrellisError } from "@/core";
import { ExpressionError, parseExpression } from "./expression";
import { blockLabel } from "./graph";
import { fallbackProblems, malformedFallbacks } from "./fallback-checks";
import {
  extractReferences,
  isWholeReference,
  parseReferences,
  parsePath,
  type ConfigReference,
} from "./reference-syntax";
import type { BlockEntry, WorkflowAnalysis } from "./workflow-analysis";

/**
 * Config checks at save time: each block's config against its type's schema, and the references
 * in it against the blocks and variables of the document.
 */

/** True when the value at the issue's path, or a value around it, is exactly one reference: its type is only known at run time. */
function isReferenceField(config: unknown, issuePath: string): boolean {
  let current: unknown = config;
  for (const segment of parsePath(`.${issuePath}`)) {
    if (isWholeReference(current)) return true;
    if (current === null || typeof current !== "object") return false;
    current = (current as Record<string | number, unknown>)[segment];
  }
  return isWholeReference(current);
}

function fieldPath(entry: BlockEntry, field: string): string {
  return field ? `blocks[${entry.index}].config.${field}` : `blocks[${entry.index}].config`;
}

/** The field as the block type names it for people, or the path itself. */
function fieldLabel(entry: BlockEntry, path: string): string {
  return entry.info?.describeConfigPath?.(path) || path;
}

/** `Routing instructions: ` before a problem found inside a field, when the block type names its fields for people. */
function fieldPrefix(entry: BlockEntry, path: string): string {
  const label = path ? entry.info?.describeConfigPath?.(path) : undefined;
  return label ? `${label}: ` : "";
}

function checkConfig(entry: BlockEntry, issues: IssueDetail[]): void {
  if (!entry.info) return;
  const parsed = entry.info.parseConfig(entry.block.config);
  if (parsed.ok) return;
  for (const issue of parsed.issues) {
    if (issue.path && isReferenceField(entry.block.config, issue.path)) continue;
    const where = issue.path ? `${fieldLabel(entry, issue.path)}: ` : "";
    issues.push({
      path: fieldPath(entry, issue.path),
      message: `Block ${blockLabel(entry.block)}: ${where}${issue.message}`,
    });
  }
}

function hasAncestor(
  analysis: WorkflowAnalysis,
  entry: BlockEntry,
  container: "loop" | "parallel",
  includeSelf: boolean,
): boolean {
  let current: BlockEntry | undefined = includeSelf ? entry : analysis.byId.get(entry.block.parentId ?? "");
  const seen = new Set<BlockEntry>();
  while (current && !seen.has(current)) {
    if (current.info?.container === container) return true;
    seen.add(current);
    current = analysis.byId.get(current.block.parentId ?? "");
  }
  return false;
}

const definedCache = new WeakMap<WorkflowAnalysis, ReadonlySet<string>>();

/** The document's variables and the names its enabled Set Variables blocks assign. */
function definedVariables(analysis: WorkflowAnalysis): ReadonlySet<string> {
  let defined = definedCache.get(analysis);
  if (defined) return defined;
  const names = new Set(Object.keys(analysis.document.variables));
  for (const entry of analysis.blocks)
    if (entry.active) for (const name of entry.info?.assignsVariables?.(entry.block) ?? []) names.add(name);
  definedCache.set(analysis, (defined = names));
  return defined;
}

function referenceProblem(analysis: WorkflowAnalysis, entry: BlockEntry, reference: ConfigReference): string | null {
  if (reference.kind === "env") return null;
  const root = reference.root.replace(/\s+/g, "").toLowerCase();
  if (root === "variable") {
    const name = reference.path[0];
    const defined = definedVariables(analysis);
    if (typeof name === "string" && defined.has(name)) return null;
    return `${reference.text} names no workflow variable${defined.size ? ` (defined: ${[...defined].join(", ")})` : " (none are defined)"}`;
  }
  if (root === "loop")
    return hasAncestor(analysis, entry, "loop", entry.info?.container === "loop")
      ? null
      : `${reference.text} is only available inside a loop container`;
  if (root === "parallel")
    return hasAncestor(analysis, entry, "parallel", false)
      ? null
      : `${reference.text} is only available inside a parallel container`;
  if (root === "start" && analysis.entry && !analysis.byName.has("start")) return null;
  const target = analysis.byName.get(root) ?? analysis.byId.get(reference.root);
  if (!target) return `${reference.text} refers to no block named or with id '${reference.root}'`;
  if (target === entry && !entry.info?.container) return `${reference.text} refers to the block itself`;
  if (!target.active) return `${reference.text} refers to ${blockLabel(target.block)}, which is disabled`;
  return null;
}

function checkReferences(analysis: WorkflowAnalysis, entry: BlockEntry, issues: IssueDetail[]): void {
  for (const reference of extractReferences(entry.block.config)) {
    const problems =
      reference.kind === "block" && (reference.fallbacks || reference.fallbackDefault)
        ? fallbackProblems(analysis, entry, reference, referenceProblem)
        : [referenceProblem(analysis, entry, reference)];
    for (const problem of problems.filter((item) => item !== null))
      issues.push({
        path: fieldPath(entry, reference.field),
        message: `Block ${blockLabel(entry.block)}: ${fieldPrefix(entry, reference.field)}${problem}`,
      });
  }
  for (const { path, text } of malformedFallbacks(entry.block.config, ""))
    issues.push({
      path: fieldPath(entry, path),
      message: `Block ${blockLabel(entry.block)}: ${fieldPrefix(entry, path)}${text} is not a reference: each alternative of ?? needs a block and a path (<A.content ?? B.content>), and only the last may be a literal ("text", a number, true, false or null)`,
    });
}

/** Strings at the given field patterns (`branches[].expression`), with their concrete paths. */
function stringsAt(
  value: unknown,
  patterns: ReadonlySet<string>,
  pattern: string,
  path: string,
  found: Array<{ path: string; text: string }>,
): void {
  if (typeof value === "string") {
    if (patterns.has(pattern)) found.push({ path, text: value });
  } else if (Array.isArray(value)) {
    value.forEach((item, index) => stringsAt(item, patterns, `${pattern}[]`, `${path}[${index}]`, found));
  } else if (value !== null && typeof value === "object") {
    for (const [key, item] of Object.entries(value))
      stringsAt(item, patterns, pattern ? `${pattern}.${key}` : key, path ? `${path}.${key}` : key, found);
  }
}

/** Expressions must parse; each reference is replaced by a placeholder of the same length so positions stay true. */
function checkExpressions(entry: BlockEntry, issues: IssueDetail[]): void {
  const fields = entry.info?.expressionFields;
  if (!fields?.length) return;
  const found: Array<{ path: string; text: string }> = [];
  stringsAt(entry.block.config, new Set(fields), "", "", found);
  for (const { path, text } of found) {
    if (text.trim() === "") continue;
    let placeholder = text;
    for (const token of parseReferences(text).reverse())
      placeholder =
        placeholder.slice(0, token.start) + "0".padEnd(token.end - token.start) + placeholder.slice(token.end);
    try {
      parseExpression(placeholder);
    } catch (error) {
      if (!(error instanceof ExpressionError)) throw error;
      issues.push({
        path: fieldPath(entry, path),
        message: `Block ${blockLabel(entry.block)}: ${fieldLabel(entry, path)}: ${error.message}`,
      });
    }
  }
}

/**
 * Fields a block type substitutes itself (a Function's code) are tried at save with every
 * reference as null: what the substitution refuses whatever the values (a reference it cannot
 * place safely) is reported here, with its place, rather than at run time.
 */
function checkFieldResolvers(entry: BlockEntry, issues: IssueDetail[]): void {
  const resolvers = entry.info?.fieldResolvers;
  if (!resolvers) return;
  const config = entry.block.config as Record<string, unknown>;
  for (const [field, resolver] of Object.entries(resolvers)) {
    const text = config[field];
    if (typeof text !== "string" || parseReferences(text).length === 0) continue;
    try {
      resolver(text, () => null, config);
    } catch (error) {
      if (!(isTrellisError(error) && error.code === "invalid_config")) throw error;
      issues.push({
        path: fieldPath(entry, field),
        message: `Block ${blockLabel(entry.block)}: ${fieldLabel(entry, field)}: ${error.message}`,
      });
    }
  }
}

export function checkConfigs(analysis: WorkflowAnalysis): IssueDetail[] {
  const issues: IssueDetail[] = [];
  for (const entry of analysis.blocks) {
    if (!entry.active) continue;
    checkConfig(entry, issues);
    checkExpressions(entry, issues);
    checkFieldResolvers(entry, issues);
    checkReferences(analysis, entry, issues);
  }
  return issues;
}
