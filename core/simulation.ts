import type { BlockTesting, HttpSample, PageSample, SimulationSource } from "@/contract";

/**
 * The seam of test runs (`test: true`). A handler whose work has side effects (an HTTP call, a
 * web page, a side-effecting tool) asks its context's `simulation`, present only in a test run,
 * instead of sending: it answers from the block's sample (`block.testing`), or with a plain "no
 * sample" answer, and marks the call simulated so the trace shows it. Models still run.
 */
export interface Simulation {
  /** The block's answer to an HTTP call (API block, `services.fetch`), if it has one. */
  http(): HttpSample | undefined;
  /** The Web block's page, if it has one. */
  page(): PageSample | undefined;
  /** The result a side-effecting tool call returns, by the tool's name as the model sees it. */
  tool(name: string): { result: unknown } | undefined;
  /** What a call without a sample answers: names the block and what to add. */
  noSample(call: string): string;
  /** Marks the block's own span: its call (the block is the call, as for the API block) was simulated. */
  markBlock(source: SimulationSource): void;
}

/** What a call with no sample gets, in place of a real answer (the run goes on). */
export interface NoSampleAnswer {
  simulated: "no-sample";
  noSample: string;
}

export function noSampleAnswer(simulation: Simulation, call: string): NoSampleAnswer {
  return { simulated: "no-sample", noSample: simulation.noSample(call) };
}

/** The simulation of one block of a test run, over the samples stored on the block. */
export function createSimulation(
  blockName: string,
  testing: BlockTesting | undefined,
  mark: (source: SimulationSource) => void,
): Simulation {
  return {
    http: () => testing?.http,
    page: () => testing?.page,
    tool: (name) =>
      testing?.tools && Object.hasOwn(testing.tools, name) ? { result: testing.tools[name] } : undefined,
    noSample: (call) =>
      `Test run: ${call} was not made, and block '${blockName}' has no test sample for it. Add one under "Test sample" in the block's inspector.`,
    markBlock: mark,
  };
}
