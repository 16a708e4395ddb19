import { describe, expect, it } from "vitest";
import { z } from "zod";
import type { WorkflowDocument } from "@/contract";
import { validateWorkflow } from "@/executor";
import { describeConfigPath, parseBlockConfig, requiredFields } from "./config-issues";
import { BLOCK_TYPES, definitionsByType, getBlockDefinition } from "./definitions";
import { lookupBlockType } from "./type-info";
import type { BlockDefinition } from "./types";

const ZOD_DEFAULT_TEXT = /Invalid input|expected string|received undefined|Too small|Too big|Invalid option/i;

function issuesOf(type: string, config: unknown) {
  const parsed = parseBlockConfig(getBlockDefinition(type)!, config);
  if (parsed.ok) throw new Error(`expected ${type} to refuse ${JSON.stringify(config)}`);
  return parsed.issues;
}

describe("every block type says what its required fields need", () => {
  it.each(BLOCK_TYPES)("%s", (type) => {
    for (const field of requiredFields(definitionsByType[type] as BlockDefinition)) {
      expect(field.needs, `${type}.${field.key} (${field.label}) has no "needs" text`).toMatch(/^[A-Z].+[^.]$/);
    }
  });

  it("finds the fields a schema requires and skips those with defaults or optional", () => {
    const keys = requiredFields(definitionsByType.router as BlockDefinition).map((field) => field.key);
    expect(keys).toEqual(["prompt"]);
    expect(requiredFields(definitionsByType.evaluator as BlockDefinition).map((field) => field.key)).toEqual([
      "content",
      "metrics",
    ]);
  });
});

describe("parseBlockConfig: zod issues in the words people see", () => {
  it("says what a missing required field needs, not zod's default text", () => {
    expect(issuesOf("router", {})).toEqual([{ path: "prompt", message: "Write the routing instructions" }]);
    expect(issuesOf("router", { prompt: "" })).toEqual([{ path: "prompt", message: "Write the routing instructions" }]);
    expect(issuesOf("condition", { branches: [] })).toEqual([{ path: "branches", message: "Add at least one branch" }]);
  });

  it("words a wrong value plainly and keeps messages the schema's author wrote", () => {
    const issues = issuesOf("router", { prompt: "route", temperature: 5, model: "" });
    expect(issues).toEqual([
      { path: "model", message: "Choose a model" },
      { path: "temperature", message: "must be at most 2" },
    ]);
    expect(issuesOf("api", { url: "https://x.test", method: "FETCH" })).toEqual([
      { path: "method", message: 'must be one of "GET", "POST", "PUT", "PATCH", "DELETE", "HEAD"' },
    ]);
    expect(issuesOf("ask", { question: "Ok?", timeoutMs: 5 })).toEqual([
      { path: "timeoutMs", message: "must be at least 1000 (one second)" },
    ]);
    expect(issuesOf("router", { prompt: 42 })).toEqual([{ path: "prompt", message: "must be text" }]);
    for (const issue of [...issues, ...issuesOf("function", { code: 1, timeoutMs: "x" })])
      expect(issue.message).not.toMatch(ZOD_DEFAULT_TEXT);
  });

  it("keeps a value that is fine", () => {
    expect(parseBlockConfig(getBlockDefinition("router")!, { prompt: "Pick one" })).toMatchObject({
      ok: true,
      value: { model: "offline/echo" },
    });
  });

  it("words issues of a schema it was not written for", () => {
    const definition = {
      fields: [{ key: "size", label: "Size", kind: "number" }],
      configSchema: z.object({ size: z.number().int() }),
    };
    const parsed = parseBlockConfig(definition as unknown as BlockDefinition, { size: 1.5 });
    expect(parsed).toEqual({ ok: false, issues: [{ path: "size", message: "must be a whole number" }] });
  });
});

describe("describeConfigPath", () => {
  it("names a field by its inspector label, and the parts inside it plainly", () => {
    const router = getBlockDefinition("router")!;
    expect(describeConfigPath(router, "prompt")).toBe("Routing instructions");
    expect(describeConfigPath(getBlockDefinition("condition")!, "branches[0].expression")).toBe(
      "Branches, item 1, expression",
    );
    expect(describeConfigPath(router, "extraSetting")).toBe("Extra setting");
  });
});

describe("the validator's messages", () => {
  const document = (config: Record<string, unknown>): WorkflowDocument => ({
    name: "w",
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
        id: "router1",
        type: "router",
        name: "Router",
        position: { x: 300, y: 0 },
        parentId: null,
        enabled: true,
        config,
      },
    ],
    edges: [{ id: "e1", source: "start", target: "router1", sourceHandle: "out" }],
  });

  it("name the block and the field by its label, and keep the path for programs", () => {
    expect(validateWorkflow(document({ model: "offline/echo" }), lookupBlockType)).toEqual([
      {
        path: "blocks[1].config.prompt",
        message: "Block 'Router': Routing instructions: Write the routing instructions",
      },
    ]);
    const [temperature] = validateWorkflow(document({ prompt: "x", temperature: -1 }), lookupBlockType);
    expect(temperature).toEqual({
      path: "blocks[1].config.temperature",
      message: "Block 'Router': Temperature: must be at least 0",
    });
    expect(validateWorkflow(document({ prompt: "Route <Nope.text>" }), lookupBlockType)).toEqual([
      {
        path: "blocks[1].config.prompt",
        message: "Block 'Router': Routing instructions: <Nope.text> refers to no block named or with id 'Nope'",
      },
    ]);
  });
});
