/** What the API and webhook examples share: shell quoting and a start input filled with example values. */

/** Quotes text for a POSIX shell: single quotes, each inner one closed, escaped and reopened. */
export function shellQuote(text: string): string {
  return `'${text.replace(/'/g, `'\\''`)}'`;
}

const EXAMPLE_VALUES: Record<string, unknown> = { number: 1, boolean: true, object: {}, array: [] };

/** An input with each declared start input set to its default, or to an example of its type (`some <name>` for text). */
export function exampleInput(
  inputs: readonly { name: string; type?: string; default?: unknown }[],
): Record<string, unknown> {
  return Object.fromEntries(
    inputs.map((input) => [
      input.name,
      input.default !== undefined ? input.default : (EXAMPLE_VALUES[input.type ?? "string"] ?? `some ${input.name}`),
    ]),
  );
}
