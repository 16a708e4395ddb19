import { describe, expect, it } from "vitest";
import { IDLE_RUN, type BlockRunState, type RunView } from "@/components/editor/store";
import { mayRunFromHere } from "./run-from-here-offer";

const block = (status: BlockRunState["status"]): BlockRunState => ({ status, text: "" });
const view = (patch: Partial<RunView>): RunView => ({
  ...IDLE_RUN,
  runId: "r1",
  status: "succeeded",
  ended: true,
  blocks: { router: block("succeeded"), billing: block("skipped"), support: block("failed"), later: block("pending") },
  ...patch,
});

describe("Run from here: where it is offered", () => {
  it("only on blocks that ran (succeeded or failed) in a finished run", () => {
    expect(mayRunFromHere(view({}), "router")).toBe(true);
    expect(mayRunFromHere(view({}), "support")).toBe(true);
    expect(mayRunFromHere(view({}), "billing")).toBe(false);
    expect(mayRunFromHere(view({}), "later")).toBe(false);
    expect(mayRunFromHere(view({}), "added-since")).toBe(false);
    expect(mayRunFromHere(view({ status: "running", ended: false }), "router")).toBe(false);
  });
});
