/** A CSV or JSON-lines file picked for import, read as text. */
export interface CaseFile {
  text: string;
  contentType: "text/csv" | "application/x-ndjson";
}

export async function readCaseFile(file: File): Promise<CaseFile> {
  const text = await file.text();
  return { text, contentType: /\.(jsonl|ndjson)$/i.test(file.name) ? "application/x-ndjson" : "text/csv" };
}

/** The columns of a file: a CSV's header (quotes honoured), or the keys of a JSON-lines file's first objects. */
export function fileColumns(file: CaseFile): string[] {
  if (file.contentType === "text/csv") return csvHeader(file.text.replace(/^\uFEFF/, ""));
  const keys = new Set<string>();
  for (const line of file.text.split(/\r?\n/).slice(0, 50)) {
    try {
      const value = JSON.parse(line) as unknown;
      if (value && typeof value === "object" && !Array.isArray(value))
        for (const key of Object.keys(value)) keys.add(key);
    } catch {
      // A bad line is the server's to name, with its number.
    }
  }
  return [...keys];
}

function csvHeader(text: string): string[] {
  const names: string[] = [];
  let current = "";
  let quoted = false;
  for (let index = 0; index < text.length; index++) {
    const char = text[index]!;
    if (quoted) {
      if (char === '"' && text[index + 1] === '"') {
        current += '"';
        index++;
      } else if (char === '"') quoted = false;
      else current += char;
    } else if (char === '"') quoted = true;
    else if (char === ",") {
      names.push(current.trim());
      current = "";
    } else if (char === "\n" || char === "\r") break;
    else current += char;
  }
  names.push(current.trim());
  return names.filter((name, index) => name !== "" || index < names.length - 1);
}

/** `{ q: "question", id: "" }` as the `map` query: `q:question,id:`. */
export function mappingQuery(mapping: Record<string, string>): string {
  return Object.entries(mapping)
    .map(([from, to]) => `${from}:${to}`)
    .join(",");
}
