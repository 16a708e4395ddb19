/**
 * What the person has paid attention to, for validation shown to people: a fresh block's empty
 * required fields are a gentle hint until its field is touched or a run is tried; then they are
 * problems. Also the fix list's state and the field it asked the inspector to focus. Not part of
 * the document: undo and saving never touch it.
 */

export interface AttentionState {
  /** Fields the person has edited or left, keyed `blockId\nfieldKey`. */
  touched: Readonly<Record<string, true>>;
  /**
   * The blocks there were when a run was tried (Run clicked): their remaining hints are now
   * problems. A block added after that starts with hints again.
   */
  runAttemptedFor: Readonly<Record<string, true>>;
  /** The list of what to fix, beside Run. */
  fixListOpen: boolean;
  /** The field the inspector should focus; `nonce` makes a repeated request for the same field count again. */
  focusRequest: { blockId: string; fieldKey: string; nonce: number } | null;
}

export interface AttentionActions {
  touchField(blockId: string, fieldKey: string): void;
  /** A run was tried while the workflow has issues: show the blocks' issues as problems and open the fix list. */
  attemptRun(): void;
  setFixListOpen(open: boolean): void;
  /** Asks the inspector to focus a field of a block (the block is selected separately). */
  requestFieldFocus(blockId: string, fieldKey: string): void;
  /** The inspector focused the field: the request is done (selecting the block later does not repeat it). */
  clearFocusRequest(): void;
}

export const INITIAL_ATTENTION: AttentionState = {
  touched: {},
  runAttemptedFor: {},
  fixListOpen: false,
  focusRequest: null,
};

/** Whether the workflow has anything to fix before it can run (hints count: the run would fail on them). */
export function workflowHasIssues(state: {
  issues: { byBlock: Readonly<Record<string, ReadonlyArray<unknown>>>; workflow: ReadonlyArray<unknown> };
}): boolean {
  return state.issues.workflow.length > 0 || Object.values(state.issues.byBlock).some((issues) => issues.length > 0);
}

/** Whether a test run is held back: any issue but models without keys on blocks that answer a test run from a recorded answer. */
export function testRunHasIssues(state: {
  issues: {
    byBlock: Readonly<Record<string, ReadonlyArray<unknown>>>;
    workflow: ReadonlyArray<unknown>;
    testRunAllowed?: boolean;
  };
}): boolean {
  return workflowHasIssues(state) && !state.issues.testRunAllowed;
}

export function touchedKey(blockId: string, fieldKey: string): string {
  return `${blockId}\n${fieldKey}`;
}

type SetAttention = (update: (attention: AttentionState) => Partial<AttentionState> | null) => void;

/** `blockIds` lists the workflow's blocks now. */
export function createAttentionActions(
  setAttention: SetAttention,
  blockIds: () => ReadonlyArray<string>,
): AttentionActions {
  return {
    touchField: (blockId, fieldKey) =>
      setAttention((attention) => {
        const key = touchedKey(blockId, fieldKey);
        return attention.touched[key] ? null : { touched: { ...attention.touched, [key]: true } };
      }),
    attemptRun: () =>
      setAttention((attention) => ({
        runAttemptedFor: {
          ...attention.runAttemptedFor,
          ...Object.fromEntries(blockIds().map((id) => [id, true as const])),
        },
        fixListOpen: true,
      })),
    setFixListOpen: (open) =>
      setAttention((attention) => (attention.fixListOpen === open ? null : { fixListOpen: open })),
    requestFieldFocus: (blockId, fieldKey) =>
      setAttention((attention) => ({
        focusRequest: { blockId, fieldKey, nonce: (attention.focusRequest?.nonce ?? 0) + 1 },
      })),
    clearFocusRequest: () => setAttention((attention) => (attention.focusRequest ? { focusRequest: null } : null)),
  };
}
