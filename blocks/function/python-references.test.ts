import { describe, expect, it } from "vitest";
import { resolveConfig, validateWorkflow, type ReferenceSource } from "@/executor";
import { runInSandbox, SandboxGate } from "@/sandbox";
import { lookupBlockType } from "../type-info";
import { functionDefinition } from "./definition";
import { pythonLiteral, substitutePythonReferences } from "./python-references";

const values: Record<string, unknown> = {
  "<start.n>": 5,
  "<start.negative>": -3,
  "<start.name>": 'Bob "the builder"\nO\'Neil {x}',
  "<start.items>": [1, { a: "x", b: null, c: true }],
  "<Agent.content>": "\\ done ''' \"\"\" {braces}",
  "<start.flag>": false,
  "<start.nothing>": null,
  "{{API_KEY}}": "sk-123",
};
const resolve = (reference: { text: string }) => {
  if (!(reference.text in values)) throw new Error(`unknown ${reference.text}`);
  return values[reference.text];
};

describe("pythonLiteral", () => {
  it("writes JSON values as Python literals", () => {
    expect(pythonLiteral(null)).toBe("None");
    expect(pythonLiteral(true)).toBe("True");
    expect(pythonLiteral(-2.5)).toBe("(-2.5)");
    expect(pythonLiteral({ a: [1, null], "b c": false })).toBe('{"a": [1, None], "b c": False}');
    expect(pythonLiteral('line\nquote"')).toBe('"line\\nquote\\""');
  });
});

describe("substitutePythonReferences", () => {
  it("turns references in code into Python literals", () => {
    expect(substitutePythonReferences("n = <start.n>", resolve)).toBe("n = 5");
    expect(substitutePythonReferences("x = <start.negative> ** 2", resolve)).toBe("x = (-3) ** 2");
    expect(substitutePythonReferences("f(<start.flag>, <start.nothing>, {{API_KEY}})", resolve)).toBe(
      'f(False, None, "sk-123")',
    );
    expect(substitutePythonReferences("items = <start.items>", resolve)).toBe(
      'items = [1, {"a": "x", "b": None, "c": True}]',
    );
  });

  it("inserts escaped text inside strings of every kind, and leaves comments alone", () => {
    expect(substitutePythonReferences("'Hi <start.name>!'", resolve)).toBe("'Hi Bob \"the builder\"\\nO\\'Neil {x}!'");
    expect(substitutePythonReferences('f"{n} <start.name>"', resolve)).toBe(
      'f"{n} Bob \\"the builder\\"\\nO\'Neil {{x}}"',
    );
    expect(substitutePythonReferences('r"\\d <start.n>"', resolve)).toBe('r"\\d " "5" r""');
    expect(substitutePythonReferences("b'<start.name>'", resolve)).toContain("\\'Neil");
    expect(substitutePythonReferences("# uses <start.missing>\nn = <start.n>", resolve)).toBe(
      "# uses <start.missing>\nn = 5",
    );
    expect(substitutePythonReferences('f"{<start.n> + 1} and {{<start.n>}}"', resolve)).toBe('f"{5 + 1} and {{5}}"');
  });

  it("propagates a resolver error naming the reference", () => {
    expect(() => substitutePythonReferences("return <start.missing>", resolve)).toThrow("unknown <start.missing>");
  });

  it("gives code that runs and sees the values, with no way to inject code through a value", async () => {
    const code = substitutePythonReferences(
      [
        "s = <start.name>",
        "t = '''<Agent.content>'''",
        'u = """<start.name> and <Agent.content>"""',
        "f = f'{len(s)}: <Agent.content>'",
        "r = r'<Agent.content>'",
        "return {'s': s, 't': t, 'u': u, 'f': f, 'r': r, 'n': <start.n> * 2, 'items': <start.items>}",
      ].join("\n"),
      resolve,
    );
    const outcome = await runInSandbox({
      code,
      language: "python",
      gate: new SandboxGate({ concurrency: 1, memoryMb: 4096 }),
    });
    const name = values["<start.name>"] as string;
    const content = values["<Agent.content>"] as string;
    expect(outcome.result).toEqual({
      s: name,
      t: content,
      u: `${name} and ${content}`,
      f: `${name.length}: ${content}`,
      r: content,
      n: 10,
      items: values["<start.items>"],
    });
  }, 60_000);
});

describe("a Function block's code follows its language", () => {
  const source: ReferenceSource = {
    root: () => ({ n: 5, name: "Ann" }),
    env: () => undefined,
  };
  const fieldResolvers = functionDefinition.fieldResolvers;

  it("substitutes Python literals for a Python block and JavaScript literals otherwise", () => {
    const python = resolveConfig({ language: "python", code: "x = <start.missing ?? null>" }, source, {
      fieldResolvers,
    });
    expect(python.code).toBe("x = None");
    const javascript = resolveConfig({ code: "const x = <start.missing ?? null>;" }, source, { fieldResolvers });
    expect(javascript.code).toBe("const x = null;");
  });

  it("refuses an unknown language when the workflow is saved", () => {
    const at = { parentId: null, enabled: true };
    const issues = validateWorkflow(
      {
        name: "Languages",
        description: "",
        variables: {},
        blocks: [
          { id: "start", type: "start", name: "Start", position: { x: 0, y: 0 }, ...at, config: { inputs: [] } },
          {
            id: "code",
            type: "function",
            name: "Code",
            position: { x: 200, y: 0 },
            ...at,
            config: { language: "ruby", code: "puts 1" },
          },
        ],
        edges: [{ id: "e1", source: "start", target: "code", sourceHandle: "out" }],
      },
      lookupBlockType,
    );
    expect(issues.find((issue) => issue.path === "blocks[1].config.language")?.message).toContain(
      'must be "javascript" or "python"',
    );
  });
});
