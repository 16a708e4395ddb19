import { describe, expect, it } from "vitest";
import { runInSandbox } from "@/sandbox";
import { ReferenceError, resolveConfig, type ReferenceSource } from "@/executor";
import { substituteCodeReferences } from "./code-references";

const values: Record<string, unknown> = {
  "<start.n>": 5,
  "<start.negative>": -3,
  "<start.name>": 'Bob "the builder"\nO\'Neil',
  "<start.items>": [1, { a: "x" }],
  "<Agent.content>": "`${process}` \\ done",
  "<start.flag>": true,
  "<start.nothing>": null,
  "<start.word>": "a.b",
  "{{API_KEY}}": "sk-123",
};
const resolve = (reference: { text: string }) => {
  if (!(reference.text in values)) throw new Error(`unknown ${reference.text}`);
  return values[reference.text];
};

describe("substituteCodeReferences", () => {
  it("turns references in code into JSON literals", () => {
    expect(substituteCodeReferences("const n = <start.n>;", resolve)).toBe("const n = 5;");
    expect(substituteCodeReferences("const s = <start.name>;", resolve)).toBe(`const s = ${JSON.stringify(values["<start.name>"])};`);
    expect(substituteCodeReferences("return <start.items>.length", resolve)).toBe('return ([1,{"a":"x"}]).length');
    expect(substituteCodeReferences("x -<start.negative>", resolve)).toBe("x -(-3)");
    expect(substituteCodeReferences("f(<start.flag>, <start.nothing>, {{API_KEY}})", resolve)).toBe('f(true, null, "sk-123")');
  });

  it("inserts escaped text inside string, template and regex literals, and leaves comments alone", () => {
    expect(substituteCodeReferences("'Hi <start.name>!'", resolve)).toBe("'Hi Bob \"the builder\"\\nO\\'Neil!'");
    expect(substituteCodeReferences('"Hi <start.name>!"', resolve)).toBe('"Hi Bob \\"the builder\\"\\nO\'Neil!"');
    expect(substituteCodeReferences("`said: <Agent.content> (${<start.n> + 1})`", resolve)).toBe("`said: \\`\\${process}\\` \\\\ done (${5 + 1})`");
    expect(substituteCodeReferences("const re = /^<start.word>$/;", resolve)).toBe("const re = /^a\\.b$/;");
    expect(substituteCodeReferences("// uses <start.missing>\n/* and <start.missing> */ <start.n>", resolve)).toBe(
      "// uses <start.missing>\n/* and <start.missing> */ 5",
    );
  });

  it("keeps track of quotes inside regular expressions and nested templates", () => {
    expect(substituteCodeReferences('const q = /"/; <start.n>', resolve)).toBe('const q = /"/; 5');
    expect(substituteCodeReferences("const a = 4 / 2; const b = '<start.n>'", resolve)).toBe("const a = 4 / 2; const b = '5'");
    expect(substituteCodeReferences("`${ `in <start.n>` + { a: <start.n> }.a }` + <start.n>", resolve)).toBe("`${ `in 5` + { a: 5 }.a }` + 5");
  });

  it("propagates a resolver error naming the reference", () => {
    expect(() => substituteCodeReferences("return <start.missing>", resolve)).toThrow("unknown <start.missing>");
  });

  it("gives code that runs and sees the values, with no way to inject code through a value", async () => {
    const code = substituteCodeReferences(
      "const s = <start.name>; const t = `<Agent.content>`; return { s, t, n: <start.n> * 2, quoted: '<start.name>' }",
      resolve,
    );
    const outcome = await runInSandbox({ code });
    expect(outcome.result).toEqual({ s: values["<start.name>"], t: values["<Agent.content>"], n: 10, quoted: values["<start.name>"] });
  });
});

describe("?? fallbacks in function code (extension)", () => {
  it("become one JavaScript value: the alternative that ran, or the literal default", () => {
    const source: ReferenceSource = {
      root(reference) {
        if (reference.root === "Sales Agent") return { content: 'Pro "costs" $20' };
        throw new ReferenceError(`${reference.text}: block '${reference.root}' was skipped (on a path not taken after 'Router'), so it has no output`);
      },
      env: () => undefined,
    };
    const code = 'return { answer: <Support Agent.content ?? Sales Agent.content>, note: "<Support Agent.note ?? "none">" };';
    const { code: resolved } = resolveConfig({ code }, source, { fieldResolvers: { code: substituteCodeReferences } });
    expect(resolved).toBe('return { answer: "Pro \\"costs\\" $20", note: "none" };');
  });
});
