const segmenter = new Intl.Segmenter("en", { granularity: "sentence" });

/** Sentences of a paragraph (Unicode sentence rules), each keeping its trailing space trimmed. */
export function splitSentences(text: string): string[] {
  const sentences: string[] = [];
  for (const { segment } of segmenter.segment(text)) {
    const trimmed = segment.trim();
    if (trimmed) sentences.push(trimmed);
  }
  return sentences;
}
