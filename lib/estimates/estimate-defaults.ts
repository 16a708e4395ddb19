/**
 * The allowances an estimate uses where neither the input nor past runs tell (README, "Estimates").
 * Each is documented there; change both together.
 */
export const ESTIMATE_DEFAULTS = {
  /** Expected completion tokens of one model call with no past runs (capped by the block's maxTokens). */
  completionTokens: 256,
  /** Worst-case completion tokens of one call when the block sets no maxTokens. */
  maxOutputTokens: 8192,
  /** An upstream output or other value unknown before the run, inserted in a prompt: expected and worst-case tokens. */
  unknownReferenceTokens: { expected: 256, high: 4096 },
  /** Worst-case tokens a tool result adds to the conversation each further iteration of a tool loop re-sends. */
  toolResultTokens: 2000,
  /** Worst-case branches of a parallel whose count or collection is unknown before the run (and never seen larger). */
  parallelBranches: 100,
} as const;
