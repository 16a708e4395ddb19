/**
 * `${name.path[0]}` references, as AnythingLLM flows and MCP-bridge workflows write them, rewritten
 * into Trellis references (`<Block.path[0]>`). `resolve` gets the root (`apiResponse`, `researcher`)
 * and the rest as written (`.data.items[0]`, or empty) and answers the Trellis reference, or null
 * when the root names nothing: that text is left as it was (the sources do the same with an
 * unknown name) and reported through `unresolved`.
 */
export function rewriteDollarReferences(
  text: string,
  resolve: (root: string, rest: string) => string | null,
  unresolved: (written: string) => void,
): string {
  // `[^{}]`, not `[^}]`: from each of many unclosed `${` the scan ran to the end of the text (quadratic).
  return text.replace(/\$\{([^{}]+)\}/g, (written, inner: string) => {
    const expression = inner.trim();
    const cut = expression.search(/[.[]/);
    const root = cut === -1 ? expression : expression.slice(0, cut);
    const rest = cut === -1 ? "" : expression.slice(cut);
    const reference = root ? resolve(root, rest) : null;
    if (reference === null) {
      unresolved(written);
      return written;
    }
    return reference;
  });
}

/** Every `${...}` root a text names, in order. */
export function dollarReferenceRoots(text: string): string[] {
  return [...text.matchAll(/\$\{\s*([^.[}\s]+)/g)].map((match) => match[1]!);
}

/** Rewrites every string inside a JSON value (headers, bodies, arguments). */
export function rewriteStrings(value: unknown, rewrite: (text: string) => string): unknown {
  if (typeof value === "string") return rewrite(value);
  if (Array.isArray(value)) return value.map((item) => rewriteStrings(item, rewrite));
  if (value && typeof value === "object")
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, rewriteStrings(item, rewrite)]));
  return value;
}
