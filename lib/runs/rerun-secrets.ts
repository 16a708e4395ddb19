/**
 * The secret values inside a stored result, found by setting its clear form beside its masked one
 * (block_checkpoints keeps both). A re-run masks them even when the secret has since been changed
 * or deleted, so an earlier run's value cannot show in the new run's events, trace or output.
 */

const LABEL = /\[secret:([A-Za-z_][A-Za-z0-9_]*)\]/;
const LABELS = new RegExp(LABEL.source, "g");

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

/** The values a masked text's `[secret:NAME]` labels stand for in its clear text. */
function secretsInText(clear: string, masked: string, found: Map<string, string>): void {
  if (clear === masked || !LABEL.test(masked)) return;
  const parts = masked.split(LABELS);
  // split with one capture group alternates literal text and label names: text, name, text, name, ..., text.
  const names = parts.filter((_, index) => index % 2 === 1);
  const pattern = parts.map((part, index) => (index % 2 === 0 ? escapeRegExp(part) : "(.+?)")).join("");
  const match = new RegExp(`^${pattern}$`, "s").exec(clear);
  if (!match) return;
  names.forEach((name, index) => {
    const value = match[index + 1];
    if (value) found.set(value, name);
  });
}

function walk(clear: unknown, masked: unknown, found: Map<string, string>, depth: number): void {
  if (depth > 100) return;
  if (typeof clear === "string" && typeof masked === "string") return secretsInText(clear, masked, found);
  if (Array.isArray(clear) && Array.isArray(masked)) {
    clear.forEach((item, index) => walk(item, masked[index], found, depth + 1));
    return;
  }
  if (clear && masked && typeof clear === "object" && typeof masked === "object") {
    for (const [key, value] of Object.entries(clear))
      walk(value, (masked as Record<string, unknown>)[key], found, depth + 1);
  }
}

/** `[name, value]` of each secret value the clear result holds where the masked one has its label. */
export function secretsBetween(clear: unknown, masked: unknown): Array<[string, string]> {
  const found = new Map<string, string>();
  walk(clear, masked, found, 0);
  return [...found].map(([value, name]) => [name, value]);
}
