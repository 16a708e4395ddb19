/**
 * A small, safe expression language for condition branches and while loops: literals, arrays,
 * objects, member access, comparisons, `&& || !`, arithmetic, `?:` and a fixed set of helpers.
 * It is interpreted over a syntax tree; nothing is ever handed to `eval` or `new Function`.
 */
export type { ExpressionNode } from "./ast";
export { ExpressionError } from "./errors";
export { evaluateCondition, evaluateExpression, evaluateNode, type ExpressionScope } from "./evaluator";
export { HELPER_NAMES } from "./functions";
export { parseExpression } from "./parser";
export { isTruthy } from "./values";
