import type { TextBlock } from "../types";
import { paragraphsOf } from "./decode-text";

/** Plain text has no markup: paragraphs are separated by blank lines. */
export function parsePlainText(text: string): TextBlock[] {
  return paragraphsOf(text, { keepLineBreaks: true }).map((paragraph) => ({ kind: "text", text: paragraph }));
}
