/**
 * Sentences of a paragraph, after the Unicode sentence rules (UAX #29) that Intl.Segmenter
 * follows, in one pass: Intl.Segmenter grows faster than its input (a 2 MB paragraph took 47 s),
 * and chunking runs it on whatever a user uploads. Every look ahead is bounded, so the work is
 * linear in the text whatever it holds.
 */

/** Ends a sentence only before a space and a word that does not start in lower case (UAX #29 ATerm). */
const FULL_STOP = ".";
/** End a sentence wherever they stand (UAX #29 STerm, the common ones). */
const TERMINATORS = new Set(["?", "!", "。", "！", "？", "｡", "‼", "⁇", "⁈", "⁉", "︒", "﹒", "．"]);
/** Quotes and brackets that close a sentence and stay with it: `"Stop." Then`. */
const CLOSERS = new Set([
  '"',
  "'",
  "”",
  "’",
  "»",
  "›",
  ")",
  "]",
  "}",
  "）",
  "］",
  "｝",
  "」",
  "』",
  "】",
  "》",
  "〉",
  "〕",
]);
/** After a terminator, these continue the sentence: `e.g., the` (UAX #29 SContinue). */
const CONTINUERS = new Set([",", ";", ":", "，", "；", "：", "、", "-", "–", "—"]);
const PARAGRAPH_SEPARATORS = new Set(["\n", "\r", "\u0085", "\u2028", "\u2029"]);

/**
 * Words that a full stop follows without ending the sentence although a capital comes next
 * ("Dr. Smith"). Intl.Segmenter split there; titles and references almost never end a sentence.
 */
const ABBREVIATIONS = new Set([
  ...["mr", "mrs", "ms", "dr", "prof", "rev", "st", "mt", "sgt", "capt", "lt", "col", "gen"],
  ...["e.g", "i.e", "fig", "figs", "no", "nos", "vs", "cf", "approx"],
]);

/** How far past a full stop's spaces to look for the lower-case letter that continues a sentence ("3. apples" no, "it. 3 apples" yes). */
const LOOK_AHEAD = 64;

const LETTER = /\p{L}/u;
const LOWER = /\p{Ll}/u;
const DIGIT = /\p{Nd}/u;

const isSpace = (char: string) => !PARAGRAPH_SEPARATORS.has(char) && /\s/.test(char);
const isTerminator = (char: string) => char === FULL_STOP || TERMINATORS.has(char);

const inWord = (char: string) => char === FULL_STOP || LETTER.test(char);

/** The word just before `end` ("dr", "e.g"), lower-cased; empty when longer than any abbreviation. */
function wordBefore(text: string, end: number): string {
  let start = end;
  while (start > 0 && end - start < 8 && inWord(text[start - 1]!)) start--;
  return start > 0 && inWord(text[start - 1]!) ? "" : text.slice(start, end).toLowerCase();
}

/**
 * Whether the text from `from` goes on in lower case: skips digits, spaces and punctuation
 * until a letter, a terminator or a line break (UAX #29 SB8), within LOOK_AHEAD characters.
 */
function continuesInLowerCase(text: string, from: number): boolean {
  const end = Math.min(text.length, from + LOOK_AHEAD);
  for (let index = from; index < end; index++) {
    const char = text[index]!;
    if (LETTER.test(char)) return LOWER.test(char);
    if (isTerminator(char) || PARAGRAPH_SEPARATORS.has(char)) return false;
  }
  return false;
}

/** Where the sentence ends if a terminator run spans [start, end), or -1 when it goes on. */
function sentenceEnd(text: string, start: number, end: number): number {
  const fullStopsOnly = text
    .slice(start, end)
    .split("")
    .every((char) => char === FULL_STOP);
  const next = text[end];
  // "3.14", "U.S.A", "end.Next": a full stop inside a word or number ends nothing.
  if (fullStopsOnly && next !== undefined && (LETTER.test(next) || DIGIT.test(next))) return -1;
  let index = end;
  while (index < text.length && CLOSERS.has(text[index]!)) index++;
  const afterClosers = index;
  while (index < text.length && isSpace(text[index]!)) index++;
  if (index < text.length && PARAGRAPH_SEPARATORS.has(text[index]!)) return index + 1;
  if (index >= text.length) return text.length;
  const following = text[index]!;
  if (CONTINUERS.has(following) || isTerminator(following)) return -1;
  if (fullStopsOnly) {
    if (continuesInLowerCase(text, index)) return -1;
    if (end - start === 1 && afterClosers === end && ABBREVIATIONS.has(wordBefore(text, start))) return -1;
    // "word.(x" with no space between: not a sentence end (UAX #29 needs a space or a line break after a full stop).
    if (index === afterClosers && afterClosers === end) return -1;
  }
  return index;
}

/** Sentences of a paragraph, each trimmed; line breaks end a sentence too. */
export function splitSentences(text: string): string[] {
  const sentences: string[] = [];
  let sentenceStart = 0;
  const push = (end: number) => {
    const sentence = text.slice(sentenceStart, end).trim();
    if (sentence) sentences.push(sentence);
    sentenceStart = end;
  };
  let index = 0;
  while (index < text.length) {
    const char = text[index]!;
    if (PARAGRAPH_SEPARATORS.has(char)) {
      index += char === "\r" && text[index + 1] === "\n" ? 2 : 1;
      push(index);
      continue;
    }
    if (!isTerminator(char)) {
      index++;
      continue;
    }
    let runEnd = index + 1;
    while (runEnd < text.length && isTerminator(text[runEnd]!)) runEnd++;
    const end = sentenceEnd(text, index, runEnd);
    if (end >= 0) {
      push(end);
      index = end;
    } else index = runEnd;
  }
  push(text.length);
  return sentences;
}
