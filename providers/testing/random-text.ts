/** A small seeded generator (mulberry32), so a failing random case can be run again. */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let mixed = Math.imul(state ^ (state >>> 15), 1 | state);
    mixed = (mixed + Math.imul(mixed ^ (mixed >>> 7), 61 | mixed)) ^ mixed;
    return ((mixed ^ (mixed >>> 14)) >>> 0) / 4_294_967_296;
  };
}

const FRAGMENTS = [
  "a",
  "b",
  "Z",
  "q",
  " ",
  "  ",
  "\n",
  "\t",
  "é",
  "ß",
  "日本",
  "д",
  "😀",
  "🎉",
  "1",
  "234",
  ".",
  ",",
  "'s",
  "'LL",
  "/",
  "<|endoftext|>",
  "ing",
  "th",
  "\u0301",
];

/** Text of about `length` characters mixing letters, unicode, emoji, digits, punctuation, spaces and special tokens. */
export function randomText(random: () => number, length: number): string {
  let text = "";
  while (text.length < length) text += FRAGMENTS[Math.floor(random() * FRAGMENTS.length)];
  return text;
}

/** Shapes of hostile or ordinary text, `length` characters each: the families the tokenizer's cost is checked over. */
export const TEXT_FAMILIES: Record<string, (random: () => number, length: number) => string> = {
  "one letter repeated": (_random, length) => "a".repeat(length),
  "random letters, no spaces": (random, length) =>
    Array.from({ length }, () => String.fromCharCode(97 + Math.floor(random() * 26))).join(""),
  "unicode letters, no spaces": (random, length) =>
    Array.from({ length }, () => String.fromCharCode(0x4e00 + Math.floor(random() * 2_000))).join(""),
  "emoji, no spaces": (random, length) =>
    Array.from({ length: Math.ceil(length / 2) }, () => String.fromCodePoint(0x1f600 + Math.floor(random() * 80))).join(
      "",
    ),
  "digits and punctuation": (random, length) =>
    Array.from({ length }, () => "0123456789.,;:!?-_=+*#"[Math.floor(random() * 22)]).join(""),
  mixed: (random, length) => randomText(random, length),
};
