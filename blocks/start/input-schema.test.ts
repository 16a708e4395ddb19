import { describe, expect, it } from "vitest";
import { startConfigSchema } from "./definition";
import { startInputJsonSchema } from "./input-schema";

describe("startInputJsonSchema", () => {
  it("lists each declared input with its type, and requires those without a default", () => {
    const { inputs } = startConfigSchema.parse({
      inputs: [
        { name: "question", type: "string", description: "What to ask" },
        { name: "topK", type: "number", default: 3 },
      ],
    });
    expect(startInputJsonSchema(inputs)).toEqual({
      $schema: "https://json-schema.org/draft/2020-12/schema",
      type: "object",
      properties: { question: { type: "string", description: "What to ask" }, topK: { type: "number", default: 3 } },
      required: ["question"],
      additionalProperties: true,
    });
  });
});
