import { describe, expect, it } from "vitest";
import { ReferenceError } from "@/core";
import {
  extractReferences,
  parseReferences,
  readPath,
  resolveConfig,
  resolveExpressionText,
  resolveText,
  wholeReference,
  type ReferenceSource,
} from "./references";

const outputs: Record<string, unknown> = {
  agent: { content: "Hello", data: { list: [{ id: 1 }, { id: 2, tags: ["x", "y"] }] }, count: 3, nothing: null },
};

const source: ReferenceSource = {
  root(reference) {
    const key = reference.root.replace(/\s+/g, "").toLowerCase();
    if (key in outputs) return outputs[key];
    throw new ReferenceError(`${reference.text}: there is no block named or with id '${reference.root}'`);
  },
  env: (name) => (name === "TOKEN" ? "abc" : undefined),
};

describe("reference syntax", () => {
  it("finds block references with names, spaces, indexes; leaves prompt tags, emails and URLs alone", () => {
    const text =
      '<Support Agent.content> <doc> <a href="x.y"> <john.doe@example.com> <https://x.y> <list[0].name> </b.c> {{ KEY }} <e.g. this>';
    expect(parseReferences(text).map((token) => token.text)).toEqual([
      "<Support Agent.content>",
      "<list[0].name>",
      "{{ KEY }}",
    ]);
    expect(parseReferences("<a.b[2].c d>")[0]).toMatchObject({ root: "a", path: ["b", 2, "c d"] });
  });

  it("extracts references from nested config with the field they sit in", () => {
    const found = extractReferences({
      prompt: "Hi <start.name>",
      headers: { auth: "{{TOKEN}}" },
      branches: [{ expression: "<x.y> > 1" }],
    });
    expect(found.map((reference) => [reference.field, reference.text])).toEqual([
      ["prompt", "<start.name>"],
      ["headers.auth", "{{TOKEN}}"],
      ["branches[0].expression", "<x.y>"],
    ]);
  });

  it("recognises a field that is exactly one reference, surrounding spaces aside", () => {
    expect(wholeReference(" <agent.count> ")?.text).toBe("<agent.count>");
    expect(wholeReference("<agent.count>!")).toBeNull();
  });
});

describe("resolving references", () => {
  it("passes a whole-field reference raw and inserts objects inside text as JSON", () => {
    expect(resolveText("<agent.data.list>", source)).toEqual([{ id: 1 }, { id: 2, tags: ["x", "y"] }]);
    expect(resolveText("<agent.count>", source)).toBe(3);
    expect(resolveText("Got <agent.data.list[0]> and <agent.count> and <agent.nothing>", source)).toBe(
      'Got {"id":1} and 3 and null',
    );
    expect(resolveText("{{TOKEN}}", source)).toBe("abc");
  });

  it("resolves recursively through objects and arrays without touching the input", () => {
    const config = { a: ["<agent.count>", { b: "x <agent.content>" }], n: 5, flag: true };
    expect(resolveConfig(config, source)).toEqual({ a: [3, { b: "x Hello" }], n: 5, flag: true });
    expect(config.a[0]).toBe("<agent.count>");
  });

  it("explains an unknown path with what is available there", () => {
    expect(() => resolveText("<agent.data.list[5]>", source)).toThrow(
      "<agent.data.list[5]>: 'agent' has no value at 'data.list[5]' (available there: [0] to [1], length)",
    );
    expect(() => resolveText("<agent.contnt>", source)).toThrow("(available there: content, data, count, nothing)");
    expect(() => resolveText("<nope.x>", source)).toThrow("<nope.x>: there is no block named or with id 'nope'");
    expect(() => resolveText("{{NOPE}}", source)).toThrow(
      "{{NOPE}}: no secret named NOPE: add it on the Secrets page, or list it in TRELLIS_WORKFLOW_ENV",
    );
  });

  it("never walks into the prototype", () => {
    expect(readPath({}, ["constructor"])).toMatchObject({ found: false });
    expect(readPath({ a: [1] }, ["a", "__proto__"])).toMatchObject({ found: false });
  });

  it("turns references in expressions into literals, quotes included, and defers unresolvable ones", () => {
    expect(resolveExpressionText(`"<agent.content>" == 'Hello' && <agent.count> > 2`, source)).toBe(
      `"Hello" == 'Hello' && 3 > 2`,
    );
    expect(resolveExpressionText("contains(<agent.data.list[1].tags>, 'y')", source)).toBe(`contains(["x","y"], 'y')`);
    expect(resolveExpressionText("<gone.x> == 1", source)).toBe(
      `unresolved("<gone.x>: there is no block named or with id 'gone'") == 1`,
    );
  });

  it("hands fields with their own substitution rule to that rule, with a resolver", () => {
    const resolved = resolveConfig({ code: "return <agent.content>;", note: "<agent.content>" }, source, {
      fieldResolvers: {
        code: (text, resolve) =>
          text.replace(/<[^>]+>/, (match) => JSON.stringify(resolve(parseReferences(match)[0]!))),
      },
    });
    expect(resolved).toEqual({ code: 'return "Hello";', note: "Hello" });
  });

  it("reports secrets it inserted so they can be masked", () => {
    const secrets: Array<[string, string]> = [];
    resolveConfig({ header: "Bearer {{TOKEN}}" }, source, { onSecret: (name, value) => secrets.push([name, value]) });
    expect(secrets).toEqual([["TOKEN", "abc"]]);
  });
});
