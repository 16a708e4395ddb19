/** UTF-8 text of a file, without a byte-order mark and with Windows or old Mac line ends made `\n`. */
export function decodeText(bytes: Uint8Array): string {
  return new TextDecoder("utf-8")
    .decode(bytes)
    .replace(/^\uFEFF/, "")
    .replace(/\r\n?/g, "\n");
}

/** Splits text into paragraphs at blank lines, joining wrapped lines within each. */
export function paragraphsOf(text: string, options: { keepLineBreaks?: boolean } = {}): string[] {
  return text
    .split(/\n[ \t]*\n/)
    .map((paragraph) => (options.keepLineBreaks ? paragraph.trim() : paragraph.replace(/\s*\n\s*/g, " ").trim()))
    .filter((paragraph) => paragraph.length > 0);
}
