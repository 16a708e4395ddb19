import { describe, expect, it } from "vitest";
import { workflowDocumentSchema, type AskAnswer, type WorkflowBlock } from "@/contract";
import { validateWorkflow } from "@/executor/dag-builder";
import { executeWorkflow } from "@/executor/engine";
import { RunAnswers } from "@/executor/runtime/run-answers";
import { controlHandlers, lookupHandlers } from "../handlers";
import { lookupBlockType } from "../type-info";
import { askConfigSchema, askDefinition } from "./definition";

const askBlock = (config: Record<string, unknown>) =>
  ({ id: "ask", type: "ask", name: "Ask", config }) as unknown as WorkflowBlock;
const choices = [
  { id: "yes", label: "Yes" },
  { id: "no", label: "No" },
];

describe("ask block definition", () => {
  it("offers a handle per choice (or out), timeout when it has a deadline, and error", () => {
    expect(
      askDefinition.sourceHandles(askBlock({ question: "?", choices, timeoutMs: 5000 })).map((handle) => handle.id),
    ).toEqual(["choice:yes", "choice:no", "timeout", "error"]);
    expect(askDefinition.sourceHandles(askBlock({ question: "?" })).map((handle) => handle.id)).toEqual([
      "out",
      "error",
    ]);
  });

  it("leaves by the chosen choice, by out without choices, and by timeout when nobody answered", () => {
    const withChoices = askBlock({ question: "?", choices });
    expect(askDefinition.takenHandles(withChoices, { choice: "no", timedOut: false })).toEqual(["choice:no"]);
    expect(askDefinition.takenHandles(withChoices, { choice: null, timedOut: true })).toEqual(["timeout"]);
    expect(askDefinition.takenHandles(askBlock({ question: "?" }), { choice: null, timedOut: false })).toEqual(["out"]);
  });

  it("refuses a config with duplicate choice ids or field names, an empty question or a too short timeout, naming the path", () => {
    const parsed = askConfigSchema.safeParse({
      question: " ",
      choices: [
        { id: "a", label: "A" },
        { id: "a", label: "A again" },
      ],
      fields: [
        { name: "n", type: "number", label: "N" },
        { name: "n", type: "string", label: "N" },
      ],
      timeoutMs: 10,
    });
    expect(parsed.success).toBe(false);
    const issues = parsed.error!.issues.map((issue) => `${issue.path.join(".")}: ${issue.message}`);
    expect(issues).toEqual([
      "question: write the question to ask",
      'choices.1: duplicate choice id "a"',
      'fields.1: duplicate field name "n"',
      "timeoutMs: must be at least 1000 (one second)",
    ]);
  });
});

describe("ask block in a real run", () => {
  const document = workflowDocumentSchema.parse({
    name: "Approve",
    blocks: [
      { id: "start", type: "start", name: "Start", config: { inputs: [{ name: "item", type: "string" }] } },
      { id: "ask", type: "ask", name: "Ask", config: { question: "Ship <start.item>?", choices } },
      { id: "shipped", type: "response", name: "Shipped", config: { data: "shipped by <Ask.answeredBy>" } },
      { id: "held", type: "response", name: "Held", config: { data: "held" } },
    ],
    edges: [
      { id: "e1", source: "start", target: "ask" },
      { id: "e2", source: "ask", target: "shipped", sourceHandle: "choice:yes" },
      { id: "e3", source: "ask", target: "held", sourceHandle: "choice:no" },
    ],
  });

  it("is valid for the real registry, asks with its references resolved, and goes down the chosen choice", async () => {
    expect(validateWorkflow(document, lookupBlockType)).toEqual([]);
    const desk = new RunAnswers();
    const answer: AskAnswer = {
      choice: "yes",
      text: null,
      fields: {},
      answeredBy: "ann@example.com",
      answeredAt: new Date().toISOString(),
      timedOut: false,
    };
    const questions: string[] = [];
    const result = await executeWorkflow({
      document,
      lookupBlockType,
      lookupHandler: lookupHandlers(controlHandlers),
      observer: {
        event: (event) => {
          if (event.type !== "ask.requested") return;
          questions.push(event.question);
          // Answered within the turn, before the run would count itself idle and park.
          queueMicrotask(() => desk.deliver(event.spanId, answer));
        },
        span: () => undefined,
      },
      runId: "r",
      workflowId: "w",
      input: { item: "the parcel" },
      answers: desk,
    });
    expect(questions).toEqual(["Ship the parcel?"]);
    expect(result).toMatchObject({ status: "succeeded", output: "shipped by ann@example.com" });
  });
});
