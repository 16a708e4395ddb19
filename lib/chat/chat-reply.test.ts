import { describe, expect, it } from "vitest";
import { workflowDocumentSchema } from "@/contract";
import { answeringBlockIds, chatRunInput, replyText } from "./chat-reply";

const document = (blocks: Array<[string, string, Record<string, unknown>?]>, edges: Array<[string, string, string?]>) =>
  workflowDocumentSchema.parse({
    name: "Doc",
    blocks: blocks.map(([id, type, config]) => ({
      id,
      type,
      name: id,
      position: { x: 0, y: 0 },
      config: config ?? {},
    })),
    edges: edges.map(([source, target, sourceHandle]) => ({
      id: `${source}-${target}`,
      source,
      target,
      ...(sourceHandle ? { sourceHandle } : {}),
    })),
  });

describe("replyText", () => {
  it("takes text, an agent's content, an object's one text, and shows anything else as JSON", () => {
    expect(replyText("Hi")).toBe("Hi");
    expect(replyText({ content: "From the agent", model: "openai/gpt-4o" })).toBe("From the agent");
    expect(replyText({ answer: "Only text", score: 3 })).toBe("Only text");
    expect(replyText({ a: "one", b: "two" })).toBe('```json\n{\n  "a": "one",\n  "b": "two"\n}\n```');
    expect(replyText(null)).toBe("");
  });
});

describe("answeringBlockIds", () => {
  it("are the blocks that lead only to a response, or end the run; not a classifier before them nor an error path", () => {
    const doc = document(
      [
        ["start", "start"],
        ["classify", "agent"],
        ["answer", "agent"],
        ["fallback", "agent"],
        ["reply", "response"],
      ],
      [
        ["start", "classify"],
        ["classify", "answer"],
        ["answer", "reply"],
        ["classify", "fallback", "error"],
      ],
    );
    expect([...answeringBlockIds(doc)].sort()).toEqual(["answer", "fallback"]);
  });
});

describe("chatRunInput", () => {
  const history = [{ role: "user" as const, content: "earlier" }];
  it("sends message and history, and the text in the first declared string input when none is named message", () => {
    const asked = document(
      [
        [
          "start",
          "start",
          {
            inputs: [
              { name: "count", type: "number", default: 1 },
              { name: "question", type: "string" },
            ],
          },
        ],
      ],
      [],
    );
    expect(chatRunInput(asked, "Hi", history)).toEqual({ message: "Hi", history, question: "Hi" });
    const plain = document([["start", "start", { inputs: [{ name: "message", type: "string" }] }]], []);
    expect(chatRunInput(plain, "Hi", [])).toEqual({ message: "Hi", history: [] });
  });
});
