import { describe, expect, it } from "vitest";
import o200kBase from "js-tiktoken/ranks/o200k_base";
import { BytePairEncoder } from "./encoding";
import {
  ASYNC_EXACT_TOKEN_CHARS,
  countTokens,
  measureTokens,
  measureTokensAsync,
  SYNC_EXACT_TOKEN_CHARS,
  TOKEN_SLICE_CHARS,
  tokenizerReady,
} from "./token-counter";
import { watchLoop } from "./testing/loop-watch";
import { seededRandom, TEXT_FAMILIES } from "./testing/random-text";

// A whole-text count with no slicing and no limit (byte-pair-encoder.test.ts checks it against js-tiktoken, which is too slow for long words).
const whole = new BytePairEncoder(o200kBase);
const exact = (text: string) => whole.count(text);

/** The cheapest of a few timed counts, per character: the least disturbed by other work on the machine. */
function nanosecondsPerCharacter(text: string): number {
  let best = Infinity;
  for (let attempt = 0; attempt < 3; attempt++) {
    const started = process.hrtime.bigint();
    countTokens(text);
    best = Math.min(best, Number(process.hrtime.bigint() - started));
  }
  return best / text.length;
}

describe("building the encoder", () => {
  it("builds in slices that let other work run, and gives exact counts once ready", async () => {
    const watch = watchLoop(1);
    const built = BytePairEncoder.build(o200kBase);
    const encoder = await built;
    const { longestHoldMs } = watch.stop();
    // At once it takes about a second (more on a busy machine); in slices no stretch comes near that.
    expect(longestHoldMs).toBeLessThan(250);
    expect(encoder.encode("Hello, wörld! 🎉 <|endoftext|>")).toEqual(whole.encode("Hello, wörld! 🎉 <|endoftext|>"));
    await tokenizerReady();
    expect(measureTokens("one two three")).toEqual({ tokens: 3, estimated: false });
  });
});

describe("countTokens' cost", () => {
  // A quadratic count costs 16 times more per character at 16 times the length; a linear one the same.
  it.each(Object.keys(TEXT_FAMILIES))("does not grow per character with the length of the text: %s", (family) => {
    const make = TEXT_FAMILIES[family]!;
    countTokens("warm up the encoder");
    const random = seededRandom(family.length);
    const short = nanosecondsPerCharacter(make(random, 2_000));
    const long = nanosecondsPerCharacter(make(random, 32_000));
    expect(long / short, `${family}: ${short.toFixed(0)} ns/char at 2,000, ${long.toFixed(0)} at 32,000`).toBeLessThan(
      4,
    );
  });
});

describe("measureTokens", () => {
  it("is exact for prose across many slices: it cuts only where o200k starts a piece anyway", () => {
    const random = seededRandom(7);
    const words = ["the", "Quick", "brown", "fox's", "日本語", "🎉", "42", "x.y", "\n", "  ", "", "tab\t"];
    let text = "";
    while (text.length < SYNC_EXACT_TOKEN_CHARS - 100) text += words[Math.floor(random() * words.length)] + " ";
    const count = measureTokens(text);
    expect(text.length).toBeGreaterThan(3 * TOKEN_SLICE_CHARS);
    expect(count).toEqual({ tokens: exact(text), estimated: false });
  });

  it("marks a word longer than a slice as estimated, within a few tokens of the exact count", () => {
    const word = "ab".repeat(TOKEN_SLICE_CHARS);
    const count = measureTokens(word);
    expect(count.estimated).toBe(true);
    expect(Math.abs(count.tokens - exact(word))).toBeLessThanOrEqual(4);
  });

  it("estimates past its limit by bytes, at the rate of the part it counted, and says so", () => {
    const text = "hello world ".repeat(SYNC_EXACT_TOKEN_CHARS / 4);
    const count = measureTokens(text);
    expect(count.estimated).toBe(true);
    expect(count.tokens).toBeGreaterThan(exact(text) * 0.99);
    expect(count.tokens).toBeLessThan(exact(text) * 1.01);
    // Nothing counted exactly: four bytes a token.
    expect(measureTokens("é".repeat(100), 0)).toEqual({ tokens: 50, estimated: true });
  });

  it("counts an empty text as no tokens, exactly", () => {
    expect(measureTokens("")).toEqual({ tokens: 0, estimated: false });
  });
});

describe("measureTokensAsync", () => {
  it("lets other work run while it counts a long word, and is exact for prose up to its limit", async () => {
    const word = "z".repeat(256 * 1024);
    const watch = watchLoop(1);
    const count = await measureTokensAsync(word);
    const { longestHoldMs, ticks } = watch.stop();
    expect(count.estimated).toBe(true);
    // A timer waiting on a held event loop fires once at the end; here it fired between slices
    // (not necessarily after each: on a busy machine a turn of the loop may take several).
    expect(ticks).toBeGreaterThan(word.length / TOKEN_SLICE_CHARS / 16);
    expect(longestHoldMs).toBeLessThan(250);
    const prose = "Tokens are counted in slices. ".repeat(2_000);
    expect(await measureTokensAsync(prose)).toEqual({ tokens: exact(prose), estimated: false });
  });

  it("estimates past its limit, and stops when its signal aborts", async () => {
    const text = "word ".repeat(ASYNC_EXACT_TOKEN_CHARS / 5 + 1_000);
    expect((await measureTokensAsync(text)).estimated).toBe(true);
    const controller = new AbortController();
    const counting = measureTokensAsync(text, controller.signal);
    controller.abort(new Error("run cancelled"));
    await expect(counting).rejects.toThrow("run cancelled");
  });
});
