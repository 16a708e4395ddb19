import type { ExpressionNode } from "./expression";
import { ExpressionError, parseExpression } from "./expression";
import { parseReferences } from "./reference-syntax";

/**
 * Edge conditions (an extension of the contract): an edge may carry an expression of the safe
 * expression language, evaluated over its source block's output, bound to the one name `output`
 * (`output.status == 200`, `output.toolOutcomes.run_linter == "error"`). The edge is taken only when
 * its handle is taken and the condition holds. Only `output` is in scope, so a condition reads
 * exactly what its source produced: the same text means the same thing wherever the edge is.
 */

/** The one name an edge condition may use bare. */
export const EDGE_CONDITION_SCOPE_NAME = "output";

export interface EdgeCondition {
  /** As written, for messages and the canvas. */
  text: string;
  /** Parsed once, at build time. */
  node: ExpressionNode;
}

export type EdgeConditionParse = { ok: true; condition: EdgeCondition | null } | { ok: false; message: string };

function bareNames(node: ExpressionNode, found: Array<{ name: string; position: number }>): void {
  switch (node.type) {
    case "identifier":
      found.push({ name: node.name, position: node.position });
      return;
    case "array":
      node.items.forEach((item) => bareNames(item, found));
      return;
    case "object":
      node.entries.forEach((entry) => bareNames(entry.value, found));
      return;
    case "member":
      bareNames(node.object, found);
      bareNames(node.property, found);
      return;
    case "call":
      node.args.forEach((arg) => bareNames(arg, found));
      return;
    case "unary":
      bareNames(node.operand, found);
      return;
    case "binary":
    case "logical":
      bareNames(node.left, found);
      bareNames(node.right, found);
      return;
    case "conditional":
      bareNames(node.test, found);
      bareNames(node.consequent, found);
      bareNames(node.alternate, found);
      return;
    case "literal":
      return;
  }
}

/** Parses an edge's condition; blank or absent means none. The message says what is wrong, not where the edge is. */
export function parseEdgeCondition(text: string | null | undefined): EdgeConditionParse {
  if (text === null || text === undefined || text.trim() === "") return { ok: true, condition: null };
  const references = parseReferences(text);
  if (references.length > 0)
    return {
      ok: false,
      message: `${text.slice(references[0]!.start, references[0]!.end)} is a reference; an edge condition reads its source's output as ${EDGE_CONDITION_SCOPE_NAME}.<field>`,
    };
  let node: ExpressionNode;
  try {
    node = parseExpression(text);
  } catch (error) {
    if (error instanceof ExpressionError) return { ok: false, message: error.message };
    throw error;
  }
  const names: Array<{ name: string; position: number }> = [];
  bareNames(node, names);
  const unknown = names.find((entry) => entry.name !== EDGE_CONDITION_SCOPE_NAME);
  if (unknown)
    return {
      ok: false,
      message: `Unknown name '${unknown.name}' at position ${unknown.position + 1} (an edge condition reads its source's output as ${EDGE_CONDITION_SCOPE_NAME}.<field>; text goes in quotes)`,
    };
  return { ok: true, condition: { text, node } };
}
