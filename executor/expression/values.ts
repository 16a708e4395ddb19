import { ExpressionError } from "./errors";

/** Value semantics shared by the evaluator and the helper functions. */

export function typeName(value: unknown): string {
  if (value === null || value === undefined) return "null";
  if (Array.isArray(value)) return "array";
  return typeof value;
}

/** Falsy: false, null, 0, NaN, "", an empty array and an empty object (unlike JavaScript, empty collections are false). */
export function isTruthy(value: unknown): boolean {
  if (value === null || value === undefined || value === false || value === "") return false;
  if (typeof value === "number") return value !== 0 && !Number.isNaN(value);
  if (Array.isArray(value)) return value.length > 0;
  if (typeof value === "object") return Object.keys(value).length > 0;
  return true;
}

/** A number from a number or a numeric string; null when it is neither. */
export function asNumber(value: unknown): number | null {
  if (typeof value === "number") return value;
  if (typeof value === "string" && value.trim() !== "") {
    const parsed = Number(value);
    return Number.isNaN(parsed) ? null : parsed;
  }
  if (typeof value === "boolean") return value ? 1 : 0;
  return null;
}

export function requireNumber(value: unknown, what: string, position: number): number {
  const number = asNumber(value);
  if (number === null) throw new ExpressionError(`${what} needs a number, got ${typeName(value)}`, position);
  return number;
}

export function toText(value: unknown): string {
  if (value === null || value === undefined) return "null";
  if (typeof value === "string") return value;
  if (typeof value === "object") return JSON.stringify(value);
  return String(value);
}

export function deepEqual(left: unknown, right: unknown): boolean {
  if (left === right) return true;
  if (left === null || right === null || left === undefined || right === undefined)
    return (left ?? null) === (right ?? null);
  if (typeof left !== "object" || typeof right !== "object") return false;
  if (Array.isArray(left) !== Array.isArray(right)) return false;
  if (Array.isArray(left) && Array.isArray(right))
    return left.length === right.length && left.every((item, index) => deepEqual(item, right[index]));
  const leftKeys = Object.keys(left);
  const rightRecord = right as Record<string, unknown>;
  if (leftKeys.length !== Object.keys(rightRecord).length) return false;
  return leftKeys.every(
    (key) => Object.hasOwn(rightRecord, key) && deepEqual((left as Record<string, unknown>)[key], rightRecord[key]),
  );
}

/** `==`: deep equality, where a number equals a string holding the same number ("3" == 3) and null equals a missing value. */
export function looseEqual(left: unknown, right: unknown): boolean {
  if (typeof left === "number" && typeof right === "string") return asNumber(right) === left;
  if (typeof left === "string" && typeof right === "number") return asNumber(left) === right;
  return deepEqual(left, right);
}

/** Orders two numbers, or two strings; a numeric string compares as a number against a number. */
export function compare(left: unknown, right: unknown, position: number): number {
  if (typeof left === "string" && typeof right === "string") return left < right ? -1 : left > right ? 1 : 0;
  const leftNumber = asNumber(left);
  const rightNumber = asNumber(right);
  if (leftNumber === null || rightNumber === null)
    throw new ExpressionError(`Cannot compare ${typeName(left)} with ${typeName(right)}`, position);
  return leftNumber - rightNumber;
}
