import { Readability } from "@mozilla/readability";
import { JSDOM, VirtualConsole } from "jsdom";

export interface ReadablePage {
  title: string;
  text: string;
}

const BLOCK_ELEMENTS = new Set([
  "ADDRESS",
  "ARTICLE",
  "ASIDE",
  "BLOCKQUOTE",
  "BR",
  "DD",
  "DIV",
  "DL",
  "DT",
  "FIGCAPTION",
  "FIGURE",
  "FOOTER",
  "FORM",
  "H1",
  "H2",
  "H3",
  "H4",
  "H5",
  "H6",
  "HEADER",
  "HR",
  "LI",
  "MAIN",
  "NAV",
  "OL",
  "P",
  "PRE",
  "SECTION",
  "TABLE",
  "TR",
  "UL",
]);
const SKIPPED_ELEMENTS = new Set(["SCRIPT", "STYLE", "NOSCRIPT", "TEMPLATE", "SVG", "IFRAME", "OBJECT", "CANVAS"]);

/** Text of a DOM subtree with a line break after each block element, whitespace collapsed. */
function textWithBreaks(root: Node): string {
  const parts: string[] = [];
  const visit = (node: Node) => {
    if (node.nodeType === 3) {
      parts.push((node.nodeValue ?? "").replace(/\s+/g, " "));
      return;
    }
    if (node.nodeType !== 1) return;
    const element = node as Element;
    if (SKIPPED_ELEMENTS.has(element.tagName.toUpperCase())) return;
    const block = BLOCK_ELEMENTS.has(element.tagName.toUpperCase());
    if (element.tagName === "PRE") {
      parts.push("\n", element.textContent ?? "", "\n");
      return;
    }
    if (block) parts.push("\n");
    for (const child of Array.from(element.childNodes)) visit(child);
    if (block) parts.push("\n");
  };
  visit(root);
  return parts
    .join("")
    .split("\n")
    .map((line) => line.replace(/[ \t\u00a0]+/g, " ").trim())
    .join("\n")
    .replace(/\n{3,}/g, "\n\n")
    .trim();
}

/**
 * The readable text and title of an HTML page: Mozilla Readability (Firefox's reader view) picks
 * the main content; a page it cannot read falls back to the body's text. jsdom parses the page
 * with scripts off and no subresource loading, so nothing in the page runs or fetches anything.
 */
export function extractReadableText(
  html: Buffer | string,
  options: { url: string; contentType?: string },
): ReadablePage {
  const dom = new JSDOM(html, {
    url: options.url,
    contentType: options.contentType?.toLowerCase().includes("html") ? options.contentType : "text/html",
    virtualConsole: new VirtualConsole(),
  });
  try {
    const { document } = dom.window;
    const documentTitle = document.title.trim();
    // Readability changes the document it reads; give it a copy so the fallback sees the original.
    const article = new Readability(document.cloneNode(true) as Document).parse();
    if (article?.content) {
      const container = document.createElement("div");
      container.innerHTML = article.content;
      const text = textWithBreaks(container);
      if (text) return { title: article.title?.trim() || documentTitle, text };
    }
    return { title: documentTitle, text: document.body ? textWithBreaks(document.body) : "" };
  } finally {
    dom.window.close();
  }
}
