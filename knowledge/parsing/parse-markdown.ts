import type { TextBlock } from "../types";

const ATX_HEADING = /^ {0,3}(#{1,6})\s+(.*?)\s*#*\s*$/;
const SETEXT_UNDERLINE = /^ {0,3}(=+|-+)\s*$/;
const FENCE = /^ {0,3}(```|~~~)/;
const LIST_ITEM = /^\s*([-*+]|\d+[.)])\s+/;
const TABLE_ROW = /^\s*\|.*\|\s*$/;

type BufferKind = "paragraph" | "list" | "table";

/** Drops inline markup that only gets in the way of search: emphasis, code ticks, link targets. */
function plainInline(text: string): string {
  return text
    .replace(/!\[([^\]]*)\]\([^)]*\)/g, "$1")
    .replace(/\[([^\]]+)\]\([^)]*\)/g, "$1")
    .replace(/(\*\*|__)(.+?)\1/g, "$2")
    .replace(/(^|\W)[*_](\S.*?\S|\S)[*_](?=\W|$)/g, "$1$2")
    .replace(/`([^`]+)`/g, "$1");
}

function stripFrontMatter(lines: string[]): string[] {
  if (lines[0]?.trim() !== "---") return lines;
  const end = lines.findIndex((line, index) => index > 0 && line.trim() === "---");
  return end < 0 ? lines : lines.slice(end + 1);
}

/**
 * A small line-based Markdown reader: headings (ATX and setext), fenced code, lists, tables and
 * paragraphs become blocks. It is enough for structure-aware chunking; rendering is not a goal.
 */
export function parseMarkdown(text: string): TextBlock[] {
  const lines = stripFrontMatter(text.split("\n"));
  const blocks: TextBlock[] = [];
  let buffer: string[] = [];
  let bufferKind: BufferKind = "paragraph";

  const flush = () => {
    const joined = bufferKind === "paragraph" ? buffer.join(" ").replace(/\s+/g, " ") : buffer.join("\n");
    const content = plainInline(joined).trim();
    if (content) blocks.push({ kind: "text", text: content });
    buffer = [];
    bufferKind = "paragraph";
  };

  for (let index = 0; index < lines.length; index++) {
    const line = lines[index] ?? "";
    const fence = FENCE.exec(line);
    if (fence) {
      flush();
      const code: string[] = [];
      for (index++; index < lines.length && !(lines[index] ?? "").trimStart().startsWith(fence[1] ?? "```"); index++) {
        code.push(lines[index] ?? "");
      }
      if (code.join("").trim()) blocks.push({ kind: "text", text: code.join("\n").trimEnd() });
      continue;
    }
    const heading = ATX_HEADING.exec(line);
    if (heading) {
      flush();
      blocks.push({ kind: "heading", level: heading[1]?.length ?? 1, text: plainInline(heading[2] ?? "") });
      continue;
    }
    const next = lines[index + 1];
    if (
      line.trim() &&
      bufferKind === "paragraph" &&
      buffer.length === 0 &&
      next !== undefined &&
      SETEXT_UNDERLINE.exec(next) &&
      !LIST_ITEM.test(line)
    ) {
      blocks.push({ kind: "heading", level: next.trim().startsWith("=") ? 1 : 2, text: plainInline(line.trim()) });
      index++;
      continue;
    }
    if (!line.trim()) {
      flush();
      continue;
    }
    const kind: BufferKind = TABLE_ROW.test(line)
      ? "table"
      : LIST_ITEM.test(line)
        ? "list"
        : bufferKind === "list"
          ? "list"
          : "paragraph";
    if (buffer.length > 0 && kind !== bufferKind && !(bufferKind === "list" && kind === "list")) flush();
    bufferKind = kind;
    if (kind === "table" && /^\s*\|?[\s:|-]+\|?\s*$/.test(line) && line.includes("-")) continue;
    buffer.push(kind === "paragraph" ? line.trim() : line.trimEnd());
  }
  flush();
  return blocks;
}
