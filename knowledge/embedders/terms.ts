/** Words that carry no topic; leaving them out keeps "the" from matching every chunk. */
const STOP_WORDS = new Set(
  "a an and are as at be by can do does for from has have how i if in into is it its may me my no not of on or our so than that the their them then there these they this to us was we were what when where which who why will with you your".split(
    " ",
  ),
);

/** A light suffix stripper so "refunds", "refunded" and "refunding" meet at "refund". */
export function stem(word: string): string {
  if (word.length <= 3) return word;
  if (word.endsWith("ies") && word.length > 4) return `${word.slice(0, -3)}y`;
  if (/(sses|shes|ches|xes|zes)$/.test(word)) return word.slice(0, -2);
  if (word.endsWith("s") && !word.endsWith("ss") && !word.endsWith("us") && !word.endsWith("is"))
    return word.slice(0, -1);
  if (word.endsWith("ing") && word.length > 5) return word.slice(0, -3);
  if (word.endsWith("ed") && word.length > 4) return word.slice(0, -2);
  return word;
}

/** Lower-cased, accent-free, stemmed words of a text, without stop words. */
export function termsOf(text: string): string[] {
  const words = text
    .normalize("NFKD")
    .replace(/\p{M}/gu, "")
    .toLowerCase()
    .match(/[\p{L}\p{N}]+/gu);
  if (!words) return [];
  return words.filter((word) => !STOP_WORDS.has(word)).map(stem);
}
