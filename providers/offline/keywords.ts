/**
 * The words of a text that carry meaning, for the offline model's keyword matching: lowercased,
 * common English words and words shorter than three letters dropped, and a plural or -ing/-ed
 * ending trimmed so "refunds" matches "refund". Deliberately simple and deterministic; it knows
 * nothing of synonyms, which is why the offline model is not a language model.
 */
const STOP_WORDS = new Set(
  (
    "a about after again all also am an and any are as at be been before being but by can could did do does doing for from had has have " +
    "having he her here hers him his how i if in into is it its just me more most my no nor not of off on once only or other our ours out " +
    "over own same she should so some such than that the their theirs them then there these they this those through to too under until up " +
    "very was we were what when where which while who whom why will with would you your yours please want need get got one two use used " +
    "using each every like make made may might must shall also"
  ).split(" "),
);

/** "refunds" -> "refund", "shipping" -> "ship", "billed" -> "bill"; short words are left alone. */
export function stem(word: string): string {
  if (word.length > 5 && word.endsWith("ing")) return word.slice(0, -3).replace(/(.)\1$/, "$1");
  if (word.length > 4 && word.endsWith("ed")) return word.slice(0, -2).replace(/(.)\1$/, "$1");
  if (word.length > 4 && word.endsWith("ies")) return `${word.slice(0, -3)}y`;
  if (word.length > 3 && word.endsWith("s") && !word.endsWith("ss")) return word.slice(0, -1);
  return word;
}

/** The distinct keywords of a text, stemmed, in order of first appearance. */
export function keywordsOf(text: string): string[] {
  const seen = new Set<string>();
  for (const word of text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []) {
    if (word.length < 3 || STOP_WORDS.has(word) || /^\d+$/.test(word)) continue;
    seen.add(stem(word));
  }
  return [...seen];
}

/** How many of `wanted`'s keywords `text` also has. */
export function overlapCount(wanted: readonly string[], text: ReadonlySet<string>): number {
  return wanted.filter((word) => text.has(word)).length;
}
