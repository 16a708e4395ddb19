import { describe, expect, it } from "vitest";
import { BudgetExceededError } from "./errors";
import { SpendLedger, type BlockBudget } from "./spend-ledger";

const call = (worstCase: number | null) => ({ model: "openai/gpt-4o-mini", worstCase });

function refusal(budget: BlockBudget, worstCase: number | null): BudgetExceededError {
  try {
    budget.reserve(call(worstCase));
  } catch (error) {
    if (error instanceof BudgetExceededError) return error;
    throw error;
  }
  throw new Error("the call was allowed");
}

describe("SpendLedger", () => {
  it("allows calls while their worst case fits, counts what they really cost, and refuses the one that could cross", () => {
    const refused: string[] = [];
    const ledger = new SpendLedger({ caps: [{ maxCost: 0.05, source: "workflow", spentBefore: 0 }] });
    const budget = ledger.forBlock("Writer", (error) => refused.push(error.message));
    budget.reserve(call(0.02)).settle(0.015);
    budget.reserve(call(0.02)).settle(0.015);
    expect(ledger.committed).toBe(0.03);
    // 0.03 spent + 0.02 worst case = 0.05: allowed, exactly at the cap.
    const third = budget.reserve(call(0.02));
    third.settle(0.01);
    const error = refusal(budget, 0.02);
    expect(error.code).toBe("budget_exceeded");
    expect(error.message).toBe(
      "Block 'Writer' was stopped before calling openai/gpt-4o-mini: $0.04 spent of the workflow's budget per run of $0.05, and the call could cost up to $0.02.",
    );
    expect(refused).toEqual([error.message]);
  });

  it("holds the worst case of calls in flight, and releases it to the real cost when they finish", () => {
    const ledger = new SpendLedger({ caps: [{ maxCost: 0.05, source: "request", spentBefore: 0 }] });
    const budget = ledger.forBlock("Fan", () => {});
    const first = budget.reserve(call(0.02));
    budget.reserve(call(0.02));
    expect(refusal(budget, 0.02).message).toContain(
      "$0 spent (and $0.04 held by calls in progress) of this run's budget of $0.05",
    );
    first.settle(0.001);
    expect(() => budget.reserve(call(0.02))).not.toThrow();
  });

  it("counts a monthly cap from what the month spent before the run, and refuses a model with no known price", () => {
    const ledger = new SpendLedger({ caps: [{ maxCost: 10, source: "workspace-monthly", spentBefore: 9.99 }] });
    const budget = ledger.forBlock("Agent", () => {});
    expect(refusal(budget, 0.02).message).toContain(
      "$9.99 spent this month of the workspace's monthly budget of $10.00",
    );
    expect(refusal(budget, null).message).toBe(
      "Block 'Agent' was stopped before calling openai/gpt-4o-mini: it has no known price, so it cannot be held to the workspace's monthly budget of $10.00. Give the model a price, or remove the budget.",
    );
  });

  it("holds a called workflow's calls to its caller's caps too, and stops the caller when they would cross them", () => {
    const callerStops: string[] = [];
    const caller = new SpendLedger({ caps: [{ maxCost: 0.03, source: "workflow", spentBefore: 0 }] }).forBlock(
      "Run child",
      (error) => callerStops.push(error.message),
    );
    const child = new SpendLedger({ caps: [], parent: caller });
    const childBlock = child.forBlock("Child agent", () => {});
    childBlock.reserve(call(0.02)).settle(0.02);
    expect(refusal(childBlock, 0.02).message).toContain("Block 'Run child' was stopped");
    expect(callerStops).toHaveLength(1);
  });
});
