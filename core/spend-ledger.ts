import { formatBudgetAmount as dollars, type BudgetSource } from "@/contract";
import { BudgetExceededError } from "./errors";
import { roundDollars } from "./usage";

/**
 * What a run may spend, and what it has spent: the guard every model call passes before it is
 * made (docs/CONTRACT.md section 12). A call reserves its worst case; while it is in flight that
 * reservation counts as spent, so parallel branches cannot jointly overshoot; when it finishes the
 * reservation is replaced by what it really cost.
 */

/** One cap a run is held to. */
export interface SpendCap {
  maxCost: number;
  source: BudgetSource;
  /** Spent against it before this run started (a monthly cap's month so far); 0 for the run's own cap. */
  spentBefore: number;
}

/** A model call asking to be made. `worstCase` is null when the model has no known price. */
export interface SpendRequest {
  model: string;
  worstCase: number | null;
}

export interface SpendReservation {
  /** The call finished (or failed): what it really cost, null when unknown (the worst case is kept then). */
  settle(actualCost: number | null): void;
}

/** What a block's model calls go through (HandlerContext.budget). */
export interface BlockBudget {
  /** @throws BudgetExceededError when the call could cross a cap: the call must not be made, and the run is stopped. */
  reserve(request: SpendRequest): SpendReservation;
  /** Why the call would be refused, if it would; changes nothing. */
  refusal(request: SpendRequest): BudgetExceededError | null;
}

/** What a run is given: its caps, and the block of a calling run whose caps apply too (a workflow run as a tool or a Workflow block). */
export interface SpendLimits {
  caps: SpendCap[];
  parent?: BlockBudget;
}

const CAP_NAMES: Record<BudgetSource, string> = {
  workflow: "the workflow's budget per run",
  request: "this run's budget",
  "workspace-monthly": "the workspace's monthly budget",
  "api-key-monthly": "the API key's monthly budget",
  evaluation: "the evaluation's budget",
};

export class SpendLedger {
  private spent = 0;
  private reserved = 0;

  constructor(private readonly limits: SpendLimits) {}

  /** What this run has spent so far, with what calls in flight have reserved. */
  get committed(): number {
    return roundDollars(this.spent + this.reserved);
  }

  /** A block's view: refusals name the block and call `onRefused` (which stops the run) before throwing. */
  forBlock(blockName: string, onRefused: (error: BudgetExceededError) => void): BlockBudget {
    const { parent } = this.limits;
    return {
      refusal: (request) => this.refusal(blockName, request) ?? parent?.refusal(request) ?? null,
      reserve: (request) => {
        const own = this.refusal(blockName, request);
        const upstream = own ? null : (parent?.refusal(request) ?? null);
        const refused = own ?? upstream;
        if (refused) {
          // This run stops first, with the reason; then the calling run's block refuses too, stopping that run.
          onRefused(refused);
          if (upstream) parent?.reserve(request);
          throw refused;
        }
        return this.hold(request);
      },
    };
  }

  private refusal(blockName: string, request: SpendRequest): BudgetExceededError | null {
    for (const cap of this.limits.caps) {
      const refused = this.check(blockName, request, cap);
      if (refused) return refused;
    }
    return null;
  }

  /** Holds the call's worst case here and in the calling run's block, until it settles. */
  private hold(request: SpendRequest): SpendReservation {
    const upstream = this.limits.parent?.reserve(request);
    const held = request.worstCase ?? 0;
    this.reserved += held;
    let settled = false;
    return {
      settle: (actualCost) => {
        if (settled) return;
        settled = true;
        this.reserved -= held;
        this.spent += actualCost ?? held;
        upstream?.settle(actualCost);
      },
    };
  }

  private check(blockName: string, request: SpendRequest, cap: SpendCap): BudgetExceededError | null {
    const name = CAP_NAMES[cap.source];
    if (request.worstCase === null) {
      return new BudgetExceededError(
        `Block '${blockName}' was stopped before calling ${request.model}: it has no known price, so it cannot be held to ${name} of ${dollars(cap.maxCost)}. ` +
          `Give the model a price, or remove the budget.`,
      );
    }
    const spent = cap.spentBefore + this.spent;
    if (spent + this.reserved + request.worstCase <= cap.maxCost + 1e-12) return null;
    const inFlight = this.reserved > 0 ? ` (and ${dollars(this.reserved)} held by calls in progress)` : "";
    const when = cap.source === "workspace-monthly" || cap.source === "api-key-monthly" ? " this month" : "";
    return new BudgetExceededError(
      `Block '${blockName}' was stopped before calling ${request.model}: ${dollars(roundDollars(spent))} spent${when}${inFlight} of ${name} of ${dollars(cap.maxCost)}, ` +
        `and the call could cost up to ${dollars(request.worstCase)}.`,
    );
  }
}
