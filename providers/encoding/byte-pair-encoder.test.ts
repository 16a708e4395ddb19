import { describe, expect, it } from "vitest";
import { Tiktoken } from "js-tiktoken/lite";
import cl100kBase from "js-tiktoken/ranks/cl100k_base";
import o200kBase from "js-tiktoken/ranks/o200k_base";
import { BytePairEncoder } from "./byte-pair-encoder";
import { randomText, seededRandom } from "../testing/random-text";

// js-tiktoken's own encoder is the reference: same rank files, same merge rule, quadratic cost.
const encodings = [
  { name: "o200k_base", ours: new BytePairEncoder(o200kBase), reference: new Tiktoken(o200kBase) },
  { name: "cl100k_base", ours: new BytePairEncoder(cl100kBase), reference: new Tiktoken(cl100kBase) },
];

describe.each(encodings)("BytePairEncoder ($name)", ({ ours, reference }) => {
  it("gives js-tiktoken's tokens for random text: runs of letters, unicode, emoji, digits, spaces, special tokens", () => {
    const random = seededRandom(30);
    for (let sample = 0; sample < 1_500; sample++) {
      const text = randomText(random, Math.floor(random() * 300));
      expect(ours.encode(text), JSON.stringify(text)).toEqual(reference.encode(text, "all"));
      expect(ours.count(text)).toBe(reference.encode(text, "all").length);
    }
  });

  it("gives js-tiktoken's tokens for long words (the shape that was quadratic), and decodes them back", () => {
    for (const text of [
      "a".repeat(1_500),
      "ab".repeat(700),
      "x9".repeat(400) + " then words",
      "日本語".repeat(300),
      "🎉".repeat(300),
    ]) {
      const tokens = ours.encode(text);
      expect(tokens).toEqual(reference.encode(text, "all"));
      expect(ours.decode(tokens)).toBe(text);
    }
  });
});
