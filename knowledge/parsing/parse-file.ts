import type { FileKind, ParsedDocument } from "../types";
import { decodeText } from "./decode-text";
import { parseCsv } from "./parse-csv";
import { parseHtml } from "./parse-html";
import { parseJson } from "./parse-json";
import { parseMarkdown } from "./parse-markdown";
import { parsePdf } from "./parse-pdf";
import { parsePlainText } from "./parse-plain-text";

/** Turns a file's bytes into structural blocks, by the kind `detectFileKind` settled on. */
export async function parseFile(kind: FileKind, bytes: Uint8Array): Promise<ParsedDocument> {
  switch (kind) {
    case "pdf": {
      const { blocks, pages } = await parsePdf(bytes);
      return { kind, blocks, metadata: { pages } };
    }
    case "txt":
      return { kind, blocks: parsePlainText(decodeText(bytes)), metadata: {} };
    case "md":
      return { kind, blocks: parseMarkdown(decodeText(bytes)), metadata: {} };
    case "html": {
      const { blocks, title } = parseHtml(decodeText(bytes));
      return { kind, blocks, metadata: title ? { title } : {} };
    }
    case "csv": {
      const { blocks, rows, columns } = parseCsv(decodeText(bytes));
      return { kind, blocks, metadata: { rows, columns } };
    }
    case "json":
      return { kind, blocks: parseJson(decodeText(bytes)), metadata: {} };
  }
}
