import { describe, expect, it } from "vitest";
import { exampleFromSchema } from "./schema-example";
import { objectSchemaProblem } from "./schema-check";
import { emptyRow, rowIssues, rowsFromSchema, schemaFromRows, type PropertyRow } from "./schema-rows";

const ticket: PropertyRow[] = [
  { name: "category", type: "string", description: "billing or technical", required: true },
  { name: "urgent", type: "boolean", description: "", required: false },
  {
    name: "customer",
    type: "object",
    description: "",
    required: true,
    children: [{ name: "email", type: "string", description: "", required: true }],
  },
  { name: "tags", type: "array", items: "string", description: "", required: false },
  {
    name: "steps",
    type: "array",
    items: "object",
    description: "what to do",
    required: true,
    children: [{ name: "order", type: "integer", description: "", required: true }],
  },
];

describe("schemaFromRows", () => {
  it("writes an object schema with required names, nested objects and arrays of objects", () => {
    expect(schemaFromRows(ticket)).toEqual({
      type: "object",
      properties: {
        category: { type: "string", description: "billing or technical" },
        urgent: { type: "boolean" },
        customer: {
          type: "object",
          properties: { email: { type: "string" } },
          required: ["email"],
          additionalProperties: false,
        },
        tags: { type: "array", items: { type: "string" } },
        steps: {
          type: "array",
          description: "what to do",
          items: {
            type: "object",
            properties: { order: { type: "integer" } },
            required: ["order"],
            additionalProperties: false,
          },
        },
      },
      required: ["category", "customer", "steps"],
      additionalProperties: false,
    });
  });
});

describe("rowsFromSchema", () => {
  it("reads back the rows it wrote", () => {
    expect(rowsFromSchema(schemaFromRows(ticket))).toEqual(ticket);
  });

  it("reads a schema written elsewhere without additionalProperties or required", () => {
    expect(rowsFromSchema({ type: "object", properties: { answer: { type: "string" } } })).toEqual([
      { name: "answer", type: "string", description: "", required: false },
    ]);
  });

  it("is empty for no schema, and null for what rows cannot hold exactly (so it stays JSON)", () => {
    expect(rowsFromSchema(undefined)).toEqual([]);
    expect(
      rowsFromSchema({ type: "object", properties: { mood: { type: "string", enum: ["happy", "sad"] } } }),
    ).toBeNull();
    expect(rowsFromSchema({ type: "array", items: { type: "string" } })).toBeNull();
    const deep = {
      type: "object",
      properties: { a: { type: "object", properties: { b: { type: "object", properties: {} } } } },
    };
    expect(rowsFromSchema(deep)).toBeNull();
    expect(rowsFromSchema("<Start.schema>")).toBeNull();
  });
});

describe("rowIssues", () => {
  it("names empty, invalid and repeated names, nested ones by their path", () => {
    const rows: PropertyRow[] = [
      { name: "", type: "string", description: "", required: true },
      { name: "2fast", type: "string", description: "", required: true },
      { name: "ok", type: "string", description: "", required: true },
      {
        name: "ok",
        type: "object",
        description: "",
        required: true,
        children: [{ name: "a b", type: "string", description: "", required: false }],
      },
    ];
    expect(rowIssues(rows)).toEqual([
      { at: [0], message: "needs a name" },
      { at: [1], message: '"2fast" is not a valid name: use letters, digits and _, not starting with a digit' },
      { at: [3], message: '"ok" is used twice' },
      { at: [3, 0], message: '"a b" is not a valid name: use letters, digits and _, not starting with a digit' },
    ]);
    expect(rowIssues(ticket)).toEqual([]);
  });

  it("offers a new row with a name not yet used", () => {
    expect(emptyRow([{ name: "field2", type: "string", description: "", required: true }]).name).toBe("field3");
  });
});

describe("exampleFromSchema", () => {
  it("gives an example answer in the schema's shape", () => {
    expect(exampleFromSchema(schemaFromRows(ticket))).toEqual({
      category: "billing or technical",
      urgent: true,
      customer: { email: "text" },
      tags: ["text"],
      steps: [{ order: 1 }],
    });
    expect(exampleFromSchema({ type: "string", enum: ["low", "high"] })).toBe("low");
  });
});

describe("objectSchemaProblem", () => {
  it("accepts an object schema, also in OpenAI's wrapper", () => {
    expect(objectSchemaProblem(schemaFromRows(ticket))).toBeNull();
    expect(objectSchemaProblem({ name: "ticket", schema: schemaFromRows(ticket), strict: true })).toBeNull();
  });

  it("says what is wrong with anything else", () => {
    expect(objectSchemaProblem([1])).toBe("must be a JSON Schema object");
    expect(objectSchemaProblem({ type: "string" })).toMatch(/must describe an object/);
    expect(objectSchemaProblem({ type: "object", properties: { a: { type: "text" } } })).toMatch(
      /^is not a valid JSON Schema: schema\/properties\/a\/type/,
    );
  });
});
