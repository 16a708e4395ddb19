/**
 * A value as the redactor reads it: the sequence of its pieces in order (every string, every
 * object and Map key, and every integer that could be a character code), so that a secret is found
 * in a key, split over consecutive strings, or spelled as a list of char codes. `rebuildValue` puts
 * masked pieces back in the same places, sharing every part where nothing changed.
 */

export type Piece = string | number;

/** An integer that is a Unicode code point: it reads as that character. */
function isCharCode(value: number): boolean {
  return Number.isInteger(value) && value >= 0 && value <= 0x10ffff;
}

/** Values whose insides are not walked: typed arrays and objects that serialise themselves (dates). */
function isOpaque(value: object): boolean {
  return ArrayBuffer.isView(value) || typeof (value as { toJSON?: unknown }).toJSON === "function";
}

/** The text a piece stands for in the joined text. */
export function pieceText(piece: Piece): string {
  return typeof piece === "string" ? piece : String.fromCodePoint(piece);
}

/**
 * Appends the pieces of `value` to `into`, in the order `rebuildValue` consumes them. With `keys`
 * false, keys are left out, so the values of an object follow one another. Answers how many keys
 * the value has.
 */
export function collectPieces(value: unknown, into: Piece[], keys: boolean): number {
  let keyCount = 0;
  const visit = (current: unknown): void => {
    if (typeof current === "string") into.push(current);
    else if (typeof current === "number") {
      if (isCharCode(current)) into.push(current);
    } else if (Array.isArray(current)) for (const item of current) visit(item);
    else if (current instanceof Map) {
      for (const [key, item] of current) {
        if (typeof key === "string") {
          keyCount++;
          if (keys) into.push(key);
        }
        visit(item);
      }
    } else if (current instanceof Set) for (const item of current) visit(item);
    else if (current !== null && typeof current === "object" && !isOpaque(current)) {
      for (const [key, item] of Object.entries(current)) {
        keyCount++;
        if (keys) into.push(key);
        visit(item);
      }
    }
  };
  visit(value);
  return keyCount;
}

/** A key not yet used in `taken`: `key`, else `key (2)`, `key (3)`... (two keys may mask alike). */
function freeKey(key: string, taken: { has(key: string): boolean }): string {
  if (!taken.has(key)) return key;
  let count = 2;
  while (taken.has(`${key} (${count})`)) count++;
  return `${key} (${count})`;
}

/**
 * `value` with its pieces replaced: `masked[i]` is the new text of the i-th piece collected with
 * the same `keys` (undefined: it is unchanged). A masked number becomes a string. Parts with no masked piece are returned as they are.
 */
export function rebuildValue(value: unknown, masked: ReadonlyArray<string | undefined>, keys: boolean): unknown {
  let next = 0;
  const take = () => masked[next++];

  const visit = (current: unknown): unknown => {
    if (typeof current === "string") return take() ?? current;
    if (typeof current === "number") return isCharCode(current) ? (take() ?? current) : current;
    if (Array.isArray(current)) {
      let changed = false;
      const result = current.map((item) => {
        const copy = visit(item);
        if (copy !== item) changed = true;
        return copy;
      });
      return changed ? result : current;
    }
    if (current instanceof Map) {
      let changed = false;
      const result = new Map<unknown, unknown>();
      for (const [key, item] of current) {
        const newKey = keys && typeof key === "string" ? take() : undefined;
        const copy = visit(item);
        if (newKey !== undefined || copy !== item) changed = true;
        result.set(newKey === undefined ? key : freeKey(newKey, result), copy);
      }
      return changed ? result : current;
    }
    if (current instanceof Set) {
      let changed = false;
      const result = new Set<unknown>();
      for (const item of current) {
        const copy = visit(item);
        if (copy !== item) changed = true;
        result.add(copy);
      }
      return changed ? result : current;
    }
    if (current === null || typeof current !== "object" || isOpaque(current)) return current;
    let changed = false;
    const result: Record<string, unknown> = {};
    const taken = new Set<string>();
    for (const [key, item] of Object.entries(current)) {
      const newKey = keys ? take() : undefined;
      const copy = visit(item);
      const name = freeKey(newKey ?? key, taken);
      if (name !== key || copy !== item) changed = true;
      taken.add(name);
      // defineProperty: a `__proto__` key stays a key instead of replacing the copy's prototype.
      Object.defineProperty(result, name, { value: copy, enumerable: true, writable: true, configurable: true });
    }
    return changed ? result : current;
  };

  return visit(value);
}
