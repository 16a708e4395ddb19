import { describe, expect, it } from "vitest";
import { block, edge, lookupFakeType, workflow } from "./__fixtures__/fake-blocks";
import { validateWorkflow } from "./dag-builder";
import { ReferenceError } from "@/core";
import {
  parseReferences,
  renameAlternativeRoots,
  resolveExpressionText,
  resolveText,
  wholeReference,
  type BlockReference,
  type ReferenceSource,
} from "./references";

/** Sales ran; Support was skipped; Empty ran with a null field. */
const source: ReferenceSource = {
  root(reference) {
    const key = reference.root.replace(/\s+/g, "").toLowerCase();
    if (key === "salesagent") return { content: "Pro costs $20", score: 7 };
    if (key === "empty") return { content: null };
    if (key === "supportagent")
      throw new ReferenceError(
        `${reference.text}: block 'Support Agent' was skipped (on a path not taken after 'Router'), so it has no output`,
      );
    throw new ReferenceError(`${reference.text}: there is no block named or with id '${reference.root}'`);
  },
  env: () => undefined,
};

describe("?? fallback syntax (extension)", () => {
  it("parses alternatives and a trailing literal default, with or without spaces", () => {
    const [merge] = parseReferences("Answer: <Sales Agent.content ?? Support Agent.content>") as BlockReference[];
    expect(merge).toMatchObject({
      text: "<Sales Agent.content ?? Support Agent.content>",
      root: "Sales Agent",
      path: ["content"],
      fallbacks: [{ root: "Support Agent", path: ["content"], text: "<Support Agent.content>" }],
    });
    expect(parseReferences('<a.b??c[0].d ?? "none ?? here">')[0]).toMatchObject({
      fallbacks: [{ root: "c", path: [0, "d"] }],
      fallbackDefault: { value: "none ?? here" },
    });
    expect(parseReferences("<a.b ?? 5.5>")[0]).toMatchObject({ fallbackDefault: { value: 5.5 } });
    expect(parseReferences("<a.b ?? null>")[0]).toMatchObject({ fallbackDefault: { value: null } });
    expect(wholeReference(" <a.b ?? c.d ?? false> ")?.text).toBe("<a.b ?? c.d ?? false>");
  });

  it("leaves text alone that is not a complete fallback: an alternative without a path, a bare word, a literal before an alternative", () => {
    expect(parseReferences("<a.b ?? c> <a.b ?? > <a.b ?? word> <a.b ?? 1 ?? c.d>")).toEqual([]);
  });

  it("renames every alternative's root and keeps paths, spacing and the default as written", () => {
    const [token] = parseReferences('<Sales Agent.content ?? sales agent.x[0] ?? "Sales Agent.y">') as BlockReference[];
    const renamed = renameAlternativeRoots(token!, (root) =>
      root.replace(/\s/g, "").toLowerCase() === "salesagent" ? "Sales Team" : undefined,
    );
    expect(renamed).toBe('<Sales Team.content ?? Sales Team.x[0] ?? "Sales Agent.y">');
  });
});

describe("resolving ?? fallbacks", () => {
  it("reads the first alternative that ran, in the order written, raw in a whole field and as text inside longer text", () => {
    expect(resolveText("<Support Agent.content ?? Sales Agent.content>", source)).toBe("Pro costs $20");
    expect(resolveText("<Support Agent.score ?? Sales Agent.score>", source)).toBe(7);
    expect(resolveText("Team says: <Support Agent.content ?? Sales Agent.content>!", source)).toBe(
      "Team says: Pro costs $20!",
    );
  });

  it("passes over a missing path or a null value, and uses the default when nothing has a value", () => {
    expect(resolveText("<Sales Agent.missing ?? Sales Agent.content>", source)).toBe("Pro costs $20");
    expect(resolveText('<Empty.content ?? Support Agent.content ?? "no answer">', source)).toBe("no answer");
    expect(resolveText("<Support Agent.content ?? 0>", source)).toBe(0);
    expect(resolveText("<Empty.content ?? Support Agent.content>", source)).toBeNull();
  });

  it("turns a merge into one literal inside expressions", () => {
    expect(resolveExpressionText("<Support Agent.score ?? Sales Agent.score> > 5", source)).toBe("7 > 5");
  });

  it("fails naming every alternative and why it has none", () => {
    expect(() => resolveText("<Support Agent.content ?? Sales Agent.nope>", source)).toThrow(
      "<Support Agent.content ?? Sales Agent.nope>: no alternative has a value: " +
        "<Support Agent.content>: block 'Support Agent' was skipped (on a path not taken after 'Router'), so it has no output; " +
        "<Sales Agent.nope>: 'Sales Agent' has no value at 'nope' (available there: content, score)",
    );
  });
});

describe("?? fallbacks at save time", () => {
  const document = (answer: string) =>
    workflow(
      [
        block("start", "start"),
        block("sales", "task", {}, { name: "Sales Agent" }),
        block("support", "task", {}, { name: "Support Agent" }),
        block("off", "task", {}, { name: "Off", enabled: false }),
        block("side", "task", {}, { name: "Side" }),
        block("response", "response", { data: { answer } }),
      ],
      [
        edge("start", "sales"),
        edge("start", "support"),
        edge("start", "side"),
        edge("sales", "response"),
        edge("support", "response"),
      ],
    );

  it("accepts alternatives that all exist, on exclusive paths or not", () => {
    expect(
      validateWorkflow(document('<Sales Agent.content ?? Support Agent.content ?? "none">'), lookupFakeType),
    ).toEqual([]);
  });

  it("checks every alternative, naming the whole reference and the one that is wrong", () => {
    expect(
      validateWorkflow(document("<Sales Agent.content ?? Suport Agent.content ?? Off.content>"), lookupFakeType),
    ).toEqual([
      {
        path: "blocks[5].config.data.answer",
        message:
          "Block 'response': <Sales Agent.content ?? Suport Agent.content ?? Off.content>: <Suport Agent.content> refers to no block named or with id 'Suport Agent'",
      },
      {
        path: "blocks[5].config.data.answer",
        message:
          "Block 'response': <Sales Agent.content ?? Suport Agent.content ?? Off.content>: <Off.content> refers to 'Off', which is disabled",
      },
    ]);
  });

  it("requires every alternative to be upstream, since one running beside the reader may or may not have run yet", () => {
    expect(validateWorkflow(document("<Sales Agent.content ?? Side.content>"), lookupFakeType)).toEqual([
      {
        path: "blocks[5].config.data.answer",
        message:
          "Block 'response': <Sales Agent.content ?? Side.content>: <Side.content> names 'Side', which is not upstream of this block; connect it before this block",
      },
    ]);
  });

  it("reports text that looks like a fallback but is not one, so it is never sent as it is", () => {
    expect(validateWorkflow(document("<Sales Agent.content ?? Support Agent>"), lookupFakeType)).toEqual([
      {
        path: "blocks[5].config.data.answer",
        message:
          "Block 'response': <Sales Agent.content ?? Support Agent> is not a reference: each alternative of ?? needs a block and a path (<A.content ?? B.content>), and only the last may be a literal (\"text\", a number, true, false or null)",
      },
    ]);
    expect(validateWorkflow(document("x < (y ?? 0) && z > 1"), lookupFakeType)).toEqual([]);
  });
});
