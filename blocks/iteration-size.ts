/**
 * How many iterations a container's `count` or `collection` gives before the run: a list's
 * length, an object's keys, a whole number (or its text); undefined when only the run knows.
 */
export function sizeOf(value: unknown): number | undefined {
  if (Array.isArray(value)) return value.length;
  if (value !== null && typeof value === "object") return Object.keys(value).length;
  if (typeof value === "number" && Number.isInteger(value) && value >= 0) return value;
  if (typeof value === "string" && /^\d+$/.test(value.trim())) return Number(value.trim());
  return undefined;
}
