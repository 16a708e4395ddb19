import { describe, expect, it } from "vitest";
import { splitSentences } from "./split-sentences";

describe("splitSentences", () => {
  it.each([
    ["Hello world. This is a test.", ["Hello world.", "This is a test."]],
    ["Use tools, e.g. hammers. Then rest.", ["Use tools, e.g. hammers.", "Then rest."]],
    [
      "We met Dr. Smith today. Mr. and Mrs. Jones came too.",
      ["We met Dr. Smith today.", "Mr. and Mrs. Jones came too."],
    ],
    ["Pi is 3.14 roughly. Version 2.0 shipped.", ["Pi is 3.14 roughly.", "Version 2.0 shipped."]],
    ["The U.S.A. is big. Yes.", ["The U.S.A. is big.", "Yes."]],
    ["Wait... what happened? Nothing! OK.", ["Wait... what happened?", "Nothing!", "OK."]],
    ["Wait... What happened?", ["Wait...", "What happened?"]],
    ['He said "Stop." Then he left.', ['He said "Stop."', "Then he left."]],
    ["It ended (finally.) Then more. “Quoted.” Next.", ["It ended (finally.)", "Then more.", "“Quoted.”", "Next."]],
    ["你好。世界！再见？好的", ["你好。", "世界！", "再见？", "好的"]],
    ["Is it? yes it is. Really?! Yes.", ["Is it?", "yes it is.", "Really?!", "Yes."]],
    ["I like it. 3 apples are here.", ["I like it. 3 apples are here."]],
    ["Line one\nLine two. Three", ["Line one", "Line two.", "Three"]],
    ["Hello world.This is one", ["Hello world.This is one"]],
    ["No terminators at all here", ["No terminators at all here"]],
    ["  \n\n  ", []],
  ])("splits %j as prose reads", (text, expected) => {
    expect(splitSentences(text)).toEqual(expected);
  });

  it("splits a paragraph of several megabytes into every one of its sentences", () => {
    const sentence = (index: number) => `Clause ${index} applies, e.g. to Dr. Lee's team, at 3.5 percent?! Yes.`;
    const count = 60_000;
    const paragraph = Array.from({ length: count }, (_, index) => sentence(index)).join(" ");
    expect(paragraph.length).toBeGreaterThan(3 * 1024 * 1024);
    const sentences = splitSentences(paragraph);
    expect(sentences).toHaveLength(count * 2);
    expect(sentences[0]).toBe("Clause 0 applies, e.g. to Dr. Lee's team, at 3.5 percent?!");
    expect(sentences.at(-2)).toBe(`Clause ${count - 1} applies, e.g. to Dr. Lee's team, at 3.5 percent?!`);
    expect(sentences.join(" ")).toBe(paragraph);
  });

  it("keeps megabytes with no sentence end, or of nothing but stops, whole and in order", () => {
    const words = "word ".repeat(600_000).trim();
    expect(splitSentences(words)).toEqual([words]);
    const stops = ". 1 ".repeat(300_000);
    const pieces = splitSentences(stops);
    expect(pieces.join(" ")).toBe(stops.trim());
    expect(pieces.length).toBeGreaterThan(1);
  });
});
