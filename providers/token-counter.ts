import o200kBase from "js-tiktoken/ranks/o200k_base";
import { BytePairEncoder } from "./encoding";

/**
 * Counts tokens with the o200k_base encoding (GPT-4o family). The ranks ship inside js-tiktoken,
 * so counting works offline. The encoder is built on first use: parsing the ranks costs ~1 s.
 *
 * Counting is n log n in the text (encoding/byte-pair-encoder.ts), yet still about 1-5 µs a character, and
 * the text is anyone's: a public chat message, a webhook body, a model's answer. So a count is
 * exact up to a limit and past it estimated from the part counted, scaled by UTF-8 bytes, and
 * flagged `estimated` so whoever shows it says so. The synchronous count stops early (it holds the
 * event loop); the asynchronous one counts 256 KiB in slices, letting other work run between.
 */
/**
 * One encoder per process, on globalThis: the server's route bundles each hold their own copy of
 * this module, and building the ranks (about 1 s) once per route held the event loop each time.
 */
const shared = globalThis as typeof globalThis & {
  __trellisO200k?: { encoder?: BytePairEncoder; building?: Promise<BytePairEncoder> };
};
const state = (shared.__trellisO200k ??= {});

function getEncoder(): BytePairEncoder {
  state.encoder ??= new BytePairEncoder(o200kBase);
  return state.encoder;
}

/**
 * Resolves once the encoder is built, building it in slices that let other work run (a
 * synchronous count before then would build it at once). Request paths await it before counting.
 */
export function tokenizerReady(): Promise<void> {
  if (state.encoder) return Promise.resolve();
  state.building ??= BytePairEncoder.build(o200kBase).then((built) => (state.encoder ??= built));
  return state.building.then(() => undefined);
}

export const TOKENIZER_NAME = "o200k_base";

/** Characters a synchronous count reads exactly (a few ms to a few tens of ms); past them it estimates. */
export const SYNC_EXACT_TOKEN_CHARS = 32 * 1024;
/** Characters an asynchronous count reads exactly, in slices; past them it estimates. */
export const ASYNC_EXACT_TOKEN_CHARS = 256 * 1024;
/** Characters counted between two yields to the event loop: 1-2 ms of work (7 ms for 4 KiB of one repeated letter measured too long once several counts interleave and a request needs several turns of the loop). */
export const TOKEN_SLICE_CHARS = 1024;

export interface TokenCount {
  tokens: number;
  /** True when part of the text was not counted (past the limit) or was cut inside a word: the figure is then an estimate. */
  estimated: boolean;
}

/** Tokens of `text`, exact up to SYNC_EXACT_TOKEN_CHARS and estimated past them. */
export function countTokens(text: string): number {
  return measureTokens(text).tokens;
}

/** Tokens of `text`, counting at most `exactChars` characters exactly before estimating the rest (0: all estimated, at 4 bytes a token). */
export function measureTokens(text: string, exactChars = SYNC_EXACT_TOKEN_CHARS): TokenCount {
  const counter = new SliceCounter(text, exactChars);
  while (counter.step());
  return counter.result();
}

/**
 * Tokens of `text`, exact up to ASYNC_EXACT_TOKEN_CHARS, yielding to the event loop between slices
 * so a long text delays other requests by one slice at most. Rejects when `signal` aborts.
 */
export async function measureTokensAsync(text: string, signal?: AbortSignal): Promise<TokenCount> {
  await tokenizerReady();
  const counter = new SliceCounter(text, ASYNC_EXACT_TOKEN_CHARS);
  while (counter.step()) {
    await new Promise<void>((resolve) => setImmediate(resolve));
    signal?.throwIfAborted();
  }
  return counter.result();
}

/**
 * Walks the text a slice at a time. A slice ends at a space that follows a non-space: o200k's
 * pattern always starts a new piece there, so counting the slices apart gives the same total. A
 * slice with no such space (one long word) is cut at its width, and the count becomes an estimate.
 */
class SliceCounter {
  private position = 0;
  private tokens = 0;
  private estimated = false;

  constructor(
    private readonly text: string,
    private readonly exactChars: number,
  ) {}

  /** Counts one slice; false once the text or the exact budget is used up. */
  step(): boolean {
    const { text } = this;
    if (this.position >= text.length || this.position >= this.exactChars) return false;
    const end = sliceEnd(text, this.position, Math.min(this.position + TOKEN_SLICE_CHARS, this.exactChars));
    if (end.cut) this.estimated = true;
    this.tokens += getEncoder().count(text.slice(this.position, end.index));
    this.position = end.index;
    return this.position < text.length && this.position < this.exactChars;
  }

  result(): TokenCount {
    if (this.position >= this.text.length) return { tokens: this.tokens, estimated: this.estimated };
    // The rest is estimated at the rate of the counted part, by UTF-8 bytes (the unit tokens are made of).
    const countedBytes = Buffer.byteLength(this.text.slice(0, this.position));
    const restBytes = Buffer.byteLength(this.text) - countedBytes;
    const rate = countedBytes > 0 ? this.tokens / countedBytes : 0.25;
    return { tokens: this.tokens + Math.ceil(restBytes * rate), estimated: true };
  }
}

/** Where a slice from `start` ends, at most at `limit`; `cut` when it had to end inside a word. */
function sliceEnd(text: string, start: number, limit: number): { index: number; cut: boolean } {
  if (limit >= text.length) return { index: text.length, cut: false };
  for (let index = limit; index > start + 1; index--) {
    if (text.charCodeAt(index) === 0x20 && !isWhitespace(text.charCodeAt(index - 1))) return { index, cut: false };
  }
  // No word break in the slice: cut at the limit, never between the halves of a surrogate pair.
  const high = text.charCodeAt(limit - 1);
  const index = high >= 0xd800 && high <= 0xdbff ? limit - 1 : limit;
  return { index: index > start ? index : limit, cut: true };
}

function isWhitespace(code: number): boolean {
  return /\s/.test(String.fromCharCode(code));
}
