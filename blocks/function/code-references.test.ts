import { describe, expect, it } from "vitest";
import { runInSandbox } from "@/sandbox";
import type { WorkflowDocument } from "@/contract";
import { ReferenceError, resolveConfig, validateWorkflow, type ReferenceSource } from "@/executor";
import { lookupBlockType } from "../type-info";
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
    expect(substituteCodeReferences("const s = <start.name>;", resolve)).toBe(
      `const s = ${JSON.stringify(values["<start.name>"])};`,
    );
    expect(substituteCodeReferences("return <start.items>.length", resolve)).toBe('return ([1,{"a":"x"}]).length');
    expect(substituteCodeReferences("x -<start.negative>", resolve)).toBe("x -(-3)");
    expect(substituteCodeReferences("f(<start.flag>, <start.nothing>, {{API_KEY}})", resolve)).toBe(
      'f(true, null, "sk-123")',
    );
  });

  it("inserts escaped text inside string, template and regex literals, and leaves comments alone", () => {
    expect(substituteCodeReferences("'Hi <start.name>!'", resolve)).toBe("'Hi Bob \"the builder\"\\nO\\'Neil!'");
    expect(substituteCodeReferences('"Hi <start.name>!"', resolve)).toBe('"Hi Bob \\"the builder\\"\\nO\'Neil!"');
    expect(substituteCodeReferences("`said: <Agent.content> (${<start.n> + 1})`", resolve)).toBe(
      "`said: \\`\\${process}\\` \\\\ done (${5 + 1})`",
    );
    expect(substituteCodeReferences("const re = /^<start.word>$/;", resolve)).toBe("const re = /^a\\.b$/;");
    expect(substituteCodeReferences("// uses <start.missing>\n/* and <start.missing> */ <start.n>", resolve)).toBe(
      "// uses <start.missing>\n/* and <start.missing> */ 5",
    );
  });

  it("keeps track of quotes inside regular expressions and nested templates", () => {
    expect(substituteCodeReferences('const q = /"/; <start.n>', resolve)).toBe('const q = /"/; 5');
    expect(substituteCodeReferences("const a = 4 / 2; const b = '<start.n>'", resolve)).toBe(
      "const a = 4 / 2; const b = '5'",
    );
    expect(substituteCodeReferences("`${ `in <start.n>` + { a: <start.n> }.a }` + <start.n>", resolve)).toBe(
      "`${ `in 5` + { a: 5 }.a }` + 5",
    );
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
    expect(outcome.result).toEqual({
      s: values["<start.name>"],
      t: values["<Agent.content>"],
      n: 10,
      quoted: values["<start.name>"],
    });
  });
});

describe("?? fallbacks in function code (extension)", () => {
  it("become one JavaScript value: the alternative that ran, or the literal default", () => {
    const source: ReferenceSource = {
      root(reference) {
        if (reference.root === "Sales Agent") return { content: 'Pro "costs" $20' };
        throw new ReferenceError(
          `${reference.text}: block '${reference.root}' was skipped (on a path not taken after 'Router'), so it has no output`,
        );
      },
      env: () => undefined,
    };
    const code =
      'return { answer: <Support Agent.content ?? Sales Agent.content>, note: "<Support Agent.note ?? "none">" };';
    const { code: resolved } = resolveConfig({ code }, source, { fieldResolvers: { code: substituteCodeReferences } });
    expect(resolved).toBe('return { answer: "Pro \\"costs\\" $20", note: "none" };');
  });
});

describe("a / after ) or other tokens: regex or division (issue 30)", () => {
  const hostile = "a/.test(x) || (globalThis.injected = true) || /b";
  const hostileResolve = (reference: { text: string }) =>
    reference.text === "<start.message>" ? hostile : resolve(reference);

  it("takes a / after the head of if, while, for and with as a regex, so a chat message stays regex text", async () => {
    const injection =
      'const a = "xyz"; let hit = false; if (true) /<start.message>/.test(a) ? (hit = true) : null; return { hit, injected: globalThis.injected === true };';
    const code = substituteCodeReferences(injection, hostileResolve);
    expect(code).toContain("/a\\/\\.test\\(x\\) \\|\\| \\(globalThis\\.injected = true\\) \\|\\| \\/b/.test(a)");
    const outcome = await runInSandbox({ code });
    expect(outcome.result).toEqual({ hit: false, injected: false });

    for (const head of [
      "while (false) /<start.message>/",
      "for (;false;) /<start.message>/",
      "for await (const x of []) /<start.message>/",
    ]) {
      expect(substituteCodeReferences(head, hostileResolve)).toContain("/a\\/\\.test\\(x\\)");
    }
  });

  it("keeps a / after a call's, a group's or a property's ) and after a name or ] as a division", () => {
    expect(substituteCodeReferences("f(x) / <start.n>", resolve)).toBe("f(x) / 5");
    expect(substituteCodeReferences("(a + b) / <start.n> / 2", resolve)).toBe("(a + b) / 5 / 2");
    expect(substituteCodeReferences("a.if(x) / <start.n> / 2", resolve)).toBe("a.if(x) / 5 / 2");
    expect(substituteCodeReferences("list[0] / <start.n> / 2", resolve)).toBe("list[0] / 5 / 2");
    expect(substituteCodeReferences("a.return / <start.n> / 2", resolve)).toBe("a.return / 5 / 2");
    expect(substituteCodeReferences("const r = /x/g / <start.n> / 2", resolve)).toBe("const r = /x/g / 5 / 2");
  });

  it("refuses, naming the place, a reference after a / that may be either (after }, ++ or --)", () => {
    for (const [code, after, place] of [
      ["if (a) {}\n/<start.message>/.test(b)", "}", "line 2, column 1"],
      ["const o = {} / <start.n>", "}", "line 1, column 14"],
      ["i++ / <start.n>", "++", "line 1, column 5"],
      ["i-- /<start.message>/", "--", "line 1, column 5"],
    ] as const) {
      expect(() => substituteCodeReferences(code, hostileResolve)).toThrow(`the / at ${place} follows ${after}`);
    }
    // The same slash with no reference after it changes nothing and is allowed.
    expect(substituteCodeReferences("const n = <start.n>; if (a) {}\n/x/.test(b)", resolve)).toBe(
      "const n = 5; if (a) {}\n/x/.test(b)",
    );
    // A comment after } is no slash.
    expect(substituteCodeReferences("if (a) {} // note\nreturn <start.n>", resolve)).toBe(
      "if (a) {} // note\nreturn 5",
    );
  });
});

describe("a reference the code cannot place safely, at save", () => {
  it("is a validation issue naming the block, the field and the place", () => {
    const document: WorkflowDocument = {
      name: "Ambiguous",
      description: "",
      variables: {},
      blocks: [
        {
          id: "start",
          type: "start",
          name: "Start",
          position: { x: 0, y: 0 },
          parentId: null,
          enabled: true,
          config: {},
        },
        {
          id: "fn",
          type: "function",
          name: "Count",
          position: { x: 300, y: 0 },
          parentId: null,
          enabled: true,
          config: { code: "let i = 0;\ni++ / <start.n>" },
        },
      ],
      edges: [{ id: "e1", source: "start", target: "fn", sourceHandle: "out" }],
    };
    const issues = validateWorkflow(document, lookupBlockType);
    expect(issues).toContainEqual({
      path: "blocks[1].config.code",
      message: expect.stringMatching(
        /^Block 'Count': .*the \/ at line 2, column 5 follows \+\+, so it may start a regular expression or divide/,
      ),
    });
    const fine = {
      ...document,
      blocks: [document.blocks[0]!, { ...document.blocks[1]!, config: { code: "if (true) /<start.n>/.test('5')" } }],
    };
    expect(validateWorkflow(fine, lookupBlockType).filter((issue) => issue.path === "blocks[1].config.code")).toEqual(
      [],
    );
  });
});
