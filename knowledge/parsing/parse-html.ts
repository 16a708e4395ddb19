import { Parser } from "htmlparser2";
import type { TextBlock } from "../types";

const SKIPPED = new Set(["script", "style", "noscript", "template", "svg", "head", "iframe", "object"]);
const BLOCK_LEVEL = new Set([
  "p",
  "div",
  "section",
  "article",
  "main",
  "aside",
  "header",
  "footer",
  "nav",
  "li",
  "ul",
  "ol",
  "dl",
  "dt",
  "dd",
  "table",
  "thead",
  "tbody",
  "tr",
  "td",
  "th",
  "blockquote",
  "pre",
  "figure",
  "figcaption",
  "form",
  "fieldset",
  "address",
  "details",
  "summary",
  "br",
  "hr",
]);
const HEADING = /^h([1-6])$/;

/**
 * Reads the text of an HTML page with its structure: headings stay headings, block elements end
 * paragraphs, and scripts, styles and the head are left out. The page title goes to metadata.
 */
export function parseHtml(html: string): { blocks: TextBlock[]; title?: string } {
  const blocks: TextBlock[] = [];
  let skipDepth = 0;
  let inTitle = false;
  let preDepth = 0;
  let title = "";
  let buffer = "";
  let headingLevel: number | undefined;

  const flush = () => {
    const text = preDepth > 0 ? buffer.replace(/^\n+|\s+$/g, "") : buffer.replace(/\s+/g, " ").trim();
    if (text) blocks.push(headingLevel ? { kind: "heading", level: headingLevel, text } : { kind: "text", text });
    buffer = "";
  };

  const parser = new Parser(
    {
      onopentag(name) {
        if (name === "title") inTitle = true;
        if (SKIPPED.has(name)) skipDepth++;
        if (skipDepth > 0) return;
        const heading = HEADING.exec(name);
        if (heading) {
          flush();
          headingLevel = Number(heading[1]);
        } else if (BLOCK_LEVEL.has(name)) {
          flush();
          if (name === "pre") preDepth++;
        }
      },
      ontext(text) {
        if (inTitle) title += text;
        if (skipDepth === 0) buffer += text;
      },
      onclosetag(name) {
        if (name === "title") inTitle = false;
        if (SKIPPED.has(name)) {
          skipDepth = Math.max(0, skipDepth - 1);
          return;
        }
        if (skipDepth > 0) return;
        if (HEADING.test(name)) {
          flush();
          headingLevel = undefined;
        } else if (BLOCK_LEVEL.has(name)) {
          flush();
          if (name === "pre") preDepth = Math.max(0, preDepth - 1);
        }
      },
    },
    { decodeEntities: true, lowerCaseTags: true },
  );
  parser.write(html);
  parser.end();
  flush();
  const cleanTitle = title.replace(/\s+/g, " ").trim();
  return cleanTitle ? { blocks, title: cleanTitle } : { blocks };
}
