import { formatPath, type PathSegment } from "./reference-syntax";

export type PathReadResult = { found: true; value: unknown } | { found: false; at: string; available: string[] };

function describeKeys(value: unknown): string[] {
  if (Array.isArray(value))
    return value.length === 0 ? ["(an empty array)"] : [`[0] to [${value.length - 1}]`, "length"];
  if (value && typeof value === "object") return Object.keys(value).slice(0, 20);
  return [];
}

/**
 * Follows a path into a value: object fields (own fields only, so `constructor` or `__proto__`
 * never reach the prototype), array indexes (negative counts from the end) and `length` of an
 * array or text. Reports where the path stopped and what was available there.
 */
export function readPath(value: unknown, path: ReadonlyArray<PathSegment>): PathReadResult {
  let current = value;
  for (let index = 0; index < path.length; index += 1) {
    const segment = path[index]!;
    if ((Array.isArray(current) || typeof current === "string") && segment === "length") {
      current = current.length;
      continue;
    }
    if (Array.isArray(current)) {
      const position = typeof segment === "number" ? segment : /^-?\d+$/.test(segment) ? Number(segment) : Number.NaN;
      const resolved = position < 0 ? current.length + position : position;
      if (Number.isInteger(resolved) && resolved >= 0 && resolved < current.length) {
        current = current[resolved];
        continue;
      }
    } else if (
      current !== null &&
      typeof current === "object" &&
      typeof segment === "string" &&
      Object.hasOwn(current, segment)
    ) {
      current = (current as Record<string, unknown>)[segment];
      continue;
    }
    return { found: false, at: formatPath(path.slice(0, index + 1)), available: describeKeys(current) };
  }
  return { found: true, value: current };
}
