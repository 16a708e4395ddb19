import { describe, expect, it } from "vitest";
import { renameReferenceRoots } from "./rename-references";

const renames = new Map([["salesagent", "Sales Team"]]);

describe("renameReferenceRoots", () => {
  it("rewrites every reference to the renamed block, however its name was written, and keeps the path", () => {
    const text = "Draft: <Sales Agent.content> / <salesagent.toolCalls[0].name> / <SALES AGENT.tokens.total>";
    expect(renameReferenceRoots(text, renames)).toBe(
      "Draft: <Sales Team.content> / <Sales Team.toolCalls[0].name> / <Sales Team.tokens.total>",
    );
  });

  it("renames every alternative of a ?? fallback, leaving the others and a literal default alone", () => {
    const text = 'One answer: <Support Agent.content ?? Sales Agent.content ?? "none"> and <salesagent.x ?? Start.y>';
    expect(renameReferenceRoots(text, renames)).toBe(
      'One answer: <Support Agent.content ?? Sales Team.content ?? "none"> and <Sales Team.x ?? Start.y>',
    );
  });

  it("leaves other blocks, environment names and XML-like tags alone", () => {
    const text = "<Support Agent.content> {{API_KEY}} <document> <Sales Agent> done";
    expect(renameReferenceRoots(text, renames)).toBe(text);
  });

  it("walks nested config and returns the same objects where nothing changed", () => {
    const untouched = { code: "return 1" };
    const config = {
      userPrompt: "<Sales Agent.content>",
      branches: [{ expression: "<sales agent.score> > 3" }],
      other: untouched,
      topK: 5,
    };
    const renamed = renameReferenceRoots(config, renames);
    expect(renamed).toEqual({
      userPrompt: "<Sales Team.content>",
      branches: [{ expression: "<Sales Team.score> > 3" }],
      other: untouched,
      topK: 5,
    });
    expect(renamed.other).toBe(untouched);
    const plain = { userPrompt: "<Start.message>" };
    expect(renameReferenceRoots(plain, renames)).toBe(plain);
  });
});
