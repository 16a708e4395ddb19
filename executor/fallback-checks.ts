import { blockLabel } from "./graph";
import { parseReferences, referenceAlternatives, type BlockReference, type ConfigReference } from "./reference-syntax";
import { upstreamBlocks } from "./upstream-blocks";
import type { BlockEntry, WorkflowAnalysis } from "./workflow-analysis";

/**
 * Save-time checks of `<A.x ?? B.y>` references (extension). Each alternative must hold as a plain
 * reference would, and a block it names must be upstream of the reader: at run time an alternative
 * that has not run is passed over, so one merely running beside the reader would be read or
 * skipped depending on timing. The alternatives need not be on exclusive paths.
 */

type PlainCheck = (analysis: WorkflowAnalysis, entry: BlockEntry, reference: ConfigReference) => string | null;

/** True when the block, or a container around it (its last iteration is read from outside), is upstream of the reader. */
function isUpstream(analysis: WorkflowAnalysis, upstream: ReadonlySet<string>, target: BlockEntry): boolean {
  const seen = new Set<string>();
  let current: BlockEntry | undefined = target;
  while (current && !seen.has(current.block.id)) {
    if (upstream.has(current.block.id)) return true;
    seen.add(current.block.id);
    current = analysis.byId.get(current.block.parentId ?? "");
  }
  return false;
}

/**
 * The blocks upstream of each reader, once per reader and document: found afresh for every `??`
 * reference, a document of n blocks quoting each other cost n² walks of the whole graph (issue 30:
 * 1,000 imported agents took 12 s to check).
 */
const upstreamOfReader = new WeakMap<BlockEntry, Set<string>>();

function upstreamOf(analysis: WorkflowAnalysis, entry: BlockEntry): Set<string> {
  let upstream = upstreamOfReader.get(entry);
  if (!upstream) {
    upstream = new Set(
      upstreamBlocks(analysis.document.blocks, analysis.document.edges, entry.block.id).map((block) => block.id),
    );
    upstreamOfReader.set(entry, upstream);
  }
  return upstream;
}

export function fallbackProblems(
  analysis: WorkflowAnalysis,
  entry: BlockEntry,
  reference: BlockReference & { field: string },
  plain: PlainCheck,
): string[] {
  let upstream: Set<string> | undefined;
  const problems: string[] = [];
  for (const alternative of referenceAlternatives(reference)) {
    const problem = plain(analysis, entry, { ...reference, ...alternative });
    if (problem) {
      problems.push(`${reference.text}: ${problem}`);
      continue;
    }
    const target =
      analysis.byName.get(alternative.root.replace(/\s+/g, "").toLowerCase()) ?? analysis.byId.get(alternative.root);
    if (!target || target === entry) continue;
    upstream ??= upstreamOf(analysis, entry);
    if (!isUpstream(analysis, upstream, target))
      problems.push(
        `${reference.text}: ${alternative.text} names ${blockLabel(target.block)}, which is not upstream of this block; connect it before this block`,
      );
  }
  return problems;
}

// A block root and a path before the `??`, so code such as `a < (b ?? 0) && c > 1` is not taken for one.
const FALLBACK_LIKE = /<[\p{L}\p{N}_][^<>\n]*?[.[][^<>\n]*?\?\?[^<>\n]*>/gu;

/** Text that looks like a `??` reference but is not one, so it would be sent as it is. */
export function malformedFallbacks(value: unknown, path: string): Array<{ path: string; text: string }> {
  if (typeof value === "string") {
    if (!value.includes("??")) return [];
    const starts = new Set(parseReferences(value).map((token) => token.start));
    return Array.from(value.matchAll(FALLBACK_LIKE))
      .filter((match) => !starts.has(match.index))
      .map((match) => ({ path, text: match[0] }));
  }
  if (Array.isArray(value)) return value.flatMap((item, index) => malformedFallbacks(item, `${path}[${index}]`));
  if (value !== null && typeof value === "object")
    return Object.entries(value).flatMap(([key, item]) => malformedFallbacks(item, path ? `${path}.${key}` : key));
  return [];
}
