import type { BlockDefinition } from "@/blocks";

/** What the "Test sample" section edits for a block. */
export interface TestSampleParts {
  /** What an HTTP sample answers ("the request"), or null. */
  request: string | null;
  page: boolean;
  /** Samples for side-effecting tool calls, by tool name (only once the block lists tools). */
  toolCalls: boolean;
  /** A recorded answer may replace its model call. */
  recordedAnswers: boolean;
  /** Whether a test run treats the block differently at all: otherwise the section is not shown. */
  shown: boolean;
}

/** The parts for a block of this type, from its definition: `testSamples`, and recorded answers where it calls a model (`modelUse`). */
export function testSampleParts(
  definition: Pick<BlockDefinition, "testSamples" | "modelUse"> | undefined,
  hasTools: boolean,
): TestSampleParts {
  const samples = definition?.testSamples;
  const parts = {
    request: samples?.request ?? null,
    page: samples?.page === true,
    toolCalls: samples?.toolCalls === true && hasTools,
    recordedAnswers: definition?.modelUse !== undefined,
  };
  return { ...parts, shown: parts.request !== null || parts.page || parts.toolCalls || parts.recordedAnswers };
}
