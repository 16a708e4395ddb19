/**
 * How a sample's body or a tool's result is typed in the inspector: JSON when it parses as JSON,
 * else the text as it is (so `{"id": 7}` is an object and `queued` a string).
 */
export function parseSampleText(text: string): unknown {
  if (text.trim() === "") return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

export function sampleText(value: unknown): string {
  if (value === undefined) return "";
  if (typeof value === "string") {
    // A string that would read back as JSON is shown quoted, so it stays a string.
    return parseSampleText(value) === value ? value : JSON.stringify(value);
  }
  return JSON.stringify(value, null, 2);
}

/** `name: value` lines, one header each. */
export function parseHeaderLines(text: string): { headers: Record<string, string>; problem: string | null } {
  const headers: Record<string, string> = {};
  for (const [index, line] of text.split("\n").entries()) {
    if (line.trim() === "") continue;
    const colon = line.indexOf(":");
    if (colon <= 0) return { headers, problem: `Line ${index + 1} needs "name: value".` };
    headers[line.slice(0, colon).trim()] = line.slice(colon + 1).trim();
  }
  return { headers, problem: null };
}

export function headerLines(headers: Record<string, string> | undefined): string {
  return Object.entries(headers ?? {})
    .map(([name, value]) => `${name}: ${value}`)
    .join("\n");
}
