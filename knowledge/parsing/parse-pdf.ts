import { extractText, getDocumentProxy } from "unpdf";
import type { TextBlock } from "../types";
import { DocumentParseError } from "../errors";
import { paragraphsOf } from "./decode-text";

/** Extracts each page's text with pdf.js (through unpdf, no native code), keeping page numbers. */
export async function parsePdf(bytes: Uint8Array): Promise<{ blocks: TextBlock[]; pages: number }> {
  let pages: string[];
  try {
    // pdf.js takes ownership of the buffer it is given, so it gets a copy.
    const document = await getDocumentProxy(new Uint8Array(bytes));
    const extracted = await extractText(document, { mergePages: false });
    pages = extracted.text;
    await document.destroy();
  } catch (error) {
    throw new DocumentParseError(
      `the PDF could not be read: ${error instanceof Error ? error.message : String(error)}`,
      { cause: error },
    );
  }
  const blocks: TextBlock[] = [];
  pages.forEach((pageText, index) => {
    for (const paragraph of paragraphsOf(pageText.replace(/\r\n?/g, "\n")))
      blocks.push({ kind: "text", text: paragraph, page: index + 1 });
  });
  if (blocks.length === 0)
    throw new DocumentParseError("the PDF has no text layer (scanned PDFs need OCR, which is not supported)");
  return { blocks, pages: pages.length };
}
