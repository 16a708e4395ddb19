import { ReferenceError } from "@/core";
import { ExpressionError } from "./errors";
import { asNumber, deepEqual, requireNumber, toText, typeName } from "./values";

type Helper = (args: unknown[], position: number) => unknown;

function arity(name: string, args: unknown[], min: number, max: number, position: number): void {
  if (args.length < min || args.length > max) {
    const expected = min === max ? `${min}` : `${min} to ${max}`;
    throw new ExpressionError(
      `${name}() takes ${expected} argument${max === 1 ? "" : "s"}, got ${args.length}`,
      position,
    );
  }
}

function requireText(name: string, value: unknown, position: number): string {
  if (typeof value === "string") return value;
  if (typeof value === "number" || typeof value === "boolean") return String(value);
  throw new ExpressionError(`${name}() needs text, got ${typeName(value)}`, position);
}

function contains(haystack: unknown, needle: unknown, position: number): boolean {
  if (typeof haystack === "string") return haystack.includes(toText(needle));
  if (Array.isArray(haystack)) return haystack.some((item) => deepEqual(item, needle));
  if (haystack && typeof haystack === "object") return Object.hasOwn(haystack, toText(needle));
  if (haystack === null || haystack === undefined) return false;
  throw new ExpressionError(`contains() needs text, an array or an object, got ${typeName(haystack)}`, position);
}

function length(value: unknown, position: number): number {
  if (typeof value === "string" || Array.isArray(value)) return value.length;
  if (value && typeof value === "object") return Object.keys(value).length;
  if (value === null || value === undefined) return 0;
  throw new ExpressionError(`length() needs text, an array or an object, got ${typeName(value)}`, position);
}

function numbers(name: string, args: unknown[], position: number): number[] {
  const list = args.length === 1 && Array.isArray(args[0]) ? args[0] : args;
  if (list.length === 0) throw new ExpressionError(`${name}() needs at least one number`, position);
  return list.map((item) => requireNumber(item, `${name}()`, position));
}

/** The helpers an expression may call. Pure functions of their arguments; nothing reaches the host. */
const HELPERS: Record<string, Helper> = {
  contains: (args, position) => (arity("contains", args, 2, 2, position), contains(args[0], args[1], position)),
  includes: (args, position) => (arity("includes", args, 2, 2, position), contains(args[0], args[1], position)),
  startsWith: (args, position) => (
    arity("startsWith", args, 2, 2, position),
    requireText("startsWith", args[0], position).startsWith(requireText("startsWith", args[1], position))
  ),
  endsWith: (args, position) => (
    arity("endsWith", args, 2, 2, position),
    requireText("endsWith", args[0], position).endsWith(requireText("endsWith", args[1], position))
  ),
  length: (args, position) => (arity("length", args, 1, 1, position), length(args[0], position)),
  len: (args, position) => (arity("len", args, 1, 1, position), length(args[0], position)),
  isEmpty: (args, position) => (arity("isEmpty", args, 1, 1, position), length(args[0], position) === 0),
  lower: (args, position) => (
    arity("lower", args, 1, 1, position),
    requireText("lower", args[0], position).toLowerCase()
  ),
  upper: (args, position) => (
    arity("upper", args, 1, 1, position),
    requireText("upper", args[0], position).toUpperCase()
  ),
  trim: (args, position) => (arity("trim", args, 1, 1, position), requireText("trim", args[0], position).trim()),
  split: (args, position) => (
    arity("split", args, 2, 2, position),
    requireText("split", args[0], position).split(requireText("split", args[1], position))
  ),
  join: (args, position) => {
    arity("join", args, 1, 2, position);
    if (!Array.isArray(args[0])) throw new ExpressionError(`join() needs an array, got ${typeName(args[0])}`, position);
    return args[0].map(toText).join(args[1] === undefined ? "," : requireText("join", args[1], position));
  },
  keys: (args, position) => {
    arity("keys", args, 1, 1, position);
    const value = args[0];
    if (!value || typeof value !== "object" || Array.isArray(value))
      throw new ExpressionError(`keys() needs an object, got ${typeName(value)}`, position);
    return Object.keys(value);
  },
  number: (args, position) => {
    arity("number", args, 1, 1, position);
    const number = asNumber(args[0]);
    if (number === null)
      throw new ExpressionError(
        `number() cannot convert ${typeName(args[0])} ${JSON.stringify(toText(args[0]).slice(0, 40))}`,
        position,
      );
    return number;
  },
  string: (args, position) => (arity("string", args, 1, 1, position), toText(args[0])),
  abs: (args, position) => (arity("abs", args, 1, 1, position), Math.abs(requireNumber(args[0], "abs()", position))),
  round: (args, position) => (
    arity("round", args, 1, 1, position),
    Math.round(requireNumber(args[0], "round()", position))
  ),
  floor: (args, position) => (
    arity("floor", args, 1, 1, position),
    Math.floor(requireNumber(args[0], "floor()", position))
  ),
  ceil: (args, position) => (
    arity("ceil", args, 1, 1, position),
    Math.ceil(requireNumber(args[0], "ceil()", position))
  ),
  /** Stands in for a reference that could not be resolved; throws only when evaluated. */
  unresolved: (args) => {
    throw new ReferenceError(typeof args[0] === "string" ? args[0] : "A reference could not be resolved");
  },
  min: (args, position) => Math.min(...numbers("min", args, position)),
  max: (args, position) => Math.max(...numbers("max", args, position)),
};

export const HELPER_NAMES = Object.keys(HELPERS);

export function callHelper(name: string, args: unknown[], position: number): unknown {
  const helper = Object.hasOwn(HELPERS, name) ? HELPERS[name] : undefined;
  if (!helper)
    throw new ExpressionError(`Unknown function '${name}' (available: ${HELPER_NAMES.join(", ")})`, position);
  return helper(args, position);
}
