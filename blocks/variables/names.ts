/**
 * Variable names, one rule for the Set Variables block and the workflow's Variables panel
 * (client-safe: the editor imports it through `@/blocks`).
 */

/** What `<variable.name>` can name: read by the reference syntax as one path segment. */
export const VARIABLE_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** A name for a new variable (`var<n>`, n from one more than the count) that none of `taken` uses. */
export function freshVariableName(taken: ReadonlyArray<string>): string {
  const used = new Set(taken);
  let index = taken.length + 1;
  while (used.has(`var${index}`)) index += 1;
  return `var${index}`;
}
