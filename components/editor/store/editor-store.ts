import { applyEdgeChanges, applyNodeChanges, type Connection, type EdgeChange, type NodeChange } from "@xyflow/react";
import { createStore, type StoreApi } from "zustand/vanilla";
import {
  type WorkflowBlock,
  type WorkflowDocument,
  type WorkflowEdge,
  type IssueDetail,
  type StoredWorkflow,
  type CopilotAnswer,
} from "@/contract";
import { canvasConnectionProblem } from "../graph/canvas-connection-problem";
import { documentToFlow, flowToDocument } from "../graph/document-flow";
import type { BlockNodeData, EditorEdge, EditorNode, WorkflowMeta } from "../graph/flow-types";
import {
  addBlocks,
  connectEdge,
  removeBlocks,
  renameReferencesIn,
  reparentBlock,
  setEdgeCondition,
  setEdgeMaxRetries,
  updateNodeData,
} from "../graph/graph-operations";
import { uniqueEdgeId } from "../graph/block-naming";
import {
  EMPTY_HISTORY,
  graphMoved,
  pushHistory,
  withoutSelection,
  type GraphSnapshot,
  type HistoryState,
} from "./history";
import {
  createAttentionActions,
  INITIAL_ATTENTION,
  type AttentionActions,
  type AttentionState,
} from "./attention-slice";
import {
  createRunActions,
  INITIAL_RUN_SLICE,
  pastRunSlice,
  type RunSliceActions,
  type RunSliceState,
} from "./run-slice";
import { INITIAL_SAVE, type SaveSliceState } from "./save-slice";
import { copilotPreview, staleProposalReason, type CopilotProposalState } from "./copilot-slice";

export interface EditorState extends RunSliceActions, AttentionActions {
  workflowId: string;
  /**
   * A viewer's editor: the document cannot change (every edit is a no-op, nothing is saved);
   * selecting blocks to read them and following runs still work.
   */
  readOnly: boolean;
  /** A past run opened on the graph it ran (its own URL): the editor is read-only and follows that run alone. */
  pastRun: PastRun | null;
  /**
   * Whether approvals and asks of the followed run can be answered: not in a viewer's editor, but
   * in an editor's view of a run on its own page, whose graph alone is read-only.
   */
  mayAnswer: boolean;
  meta: WorkflowMeta;
  nodes: EditorNode[];
  edges: EditorEdge[];
  history: HistoryState;
  /** Snapshot taken when a drag or resize began; pushed to history if the gesture moved anything. */
  gestureStart: GraphSnapshot | null;
  save: SaveSliceState;
  /** Validation problems per block id, and those that belong to no block. */
  issues: { byBlock: Record<string, IssueDetail[]>; workflow: IssueDetail[]; testRunAllowed?: boolean };
  /** Which fields were touched and whether a run was tried: hints or problems (attention-slice.ts). */
  attention: AttentionState;
  /** The followed run and the run panel; run-slice.ts says who writes what. Undo never touches it. */
  run: RunSliceState;
  /** The input typed in the Run form, for the cost estimate; null while the form is closed (inputs unknown). */
  estimateInput: Record<string, unknown> | null;
  setEstimateInput(input: Record<string, unknown> | null): void;

  onNodesChange(changes: NodeChange<EditorNode>[]): void;
  onEdgesChange(changes: EdgeChange<EditorEdge>[]): void;
  connect(connection: Connection): string | null;
  addBlocks(blocks: WorkflowBlock[], edges?: WorkflowEdge[]): void;
  updateBlock(id: string, patch: Partial<BlockNodeData>, coalesceKey?: string): void;
  updateMeta(patch: Partial<WorkflowMeta>, coalesceKey?: string): void;
  /** Sets an edge's condition (blank clears it); typing coalesces into one undo step. */
  setEdgeCondition(id: string, condition: string): void;
  /** Sets a retry edge's cap, or clears it (null). */
  setEdgeMaxRetries(id: string, maxRetries: number | null): void;
  /**
   * When a rename of block `id` ends, points every reference to `previousName` at its current
   * name, in the rename's undo step. Skipped while the new name clashes with another block's.
   */
  renameReferences(id: string, previousName: string): void;
  deleteSelection(): void;
  deleteBlocks(ids: string[]): void;
  reparent(nodeId: string, parentId: string | null): void;
  applyPositions(positions: Map<string, { x: number; y: number; width?: number; height?: number }>): void;
  beginGesture(): void;
  endGesture(): void;
  selectOnly(ids: ReadonlyArray<string>): void;
  selectAll(): void;
  /** Selects one edge alone (its condition label was clicked). */
  selectEdge(id: string): void;
  undo(): void;
  redo(): void;
  toDocument(): WorkflowDocument;
  /** Saving lifecycle, driven by the autosave hook. */
  saveStarted(revision: number): void;
  saveSucceeded(stored: StoredWorkflow, revision: number): void;
  saveFailed(message: string): void;
  saveConflicted(current: StoredWorkflow | null): void;
  /** Replaces the document being edited, as one undoable change (restoring a kept draft). */
  replaceDocument(document: WorkflowDocument): void;
  /** A copilot proposal shown on the canvas, waiting for Accept or Reject (null: none). */
  copilotProposal: CopilotProposalState | null;
  showCopilotProposal(answer: CopilotAnswer, askedAtRevision: number): void;
  /** Applies the proposal as one undoable step; answers why not when the draft changed since it was asked for. */
  acceptCopilotProposal(): string | null;
  /** Drops the proposal; the draft is as it was. */
  rejectCopilotProposal(): void;
  /** A question for the copilot asked from elsewhere ("why did this fail?" on a failed run): opens its panel. */
  copilotQuestion: { message: string; runId?: string; asked: number } | null;
  askCopilot(question: { message: string; runId?: string } | null): void;
  /** Replaces the whole document with the server's copy (after a conflict: "reload"). */
  loadStored(stored: StoredWorkflow): void;
  setIssues(issues: EditorState["issues"]): void;
}

export type EditorStore = StoreApi<EditorState>;

/** The run a past-run editor shows, and what it knows of the graph it ran. */
export interface PastRun {
  runId: string;
  /** The workflow's version it ran; null for runs stored before versions were kept. */
  workflowVersion: number | null;
  /** False for runs stored before documents were kept: the graph shown is the current one. */
  documentKept: boolean;
  /** The user's role may act on runs (editor and above): a live run's approvals and asks can be answered here. */
  mayAct: boolean;
}

export interface EditorStoreOptions {
  readOnly?: boolean;
  /** Opens the editor on a past run: read-only, following that run from its first event, its trace open. */
  pastRun?: PastRun;
}

function metaOf(document: WorkflowDocument): WorkflowMeta {
  return {
    name: document.name,
    description: document.description ?? "",
    variables: document.variables ?? {},
    ...(document.settings ? { settings: document.settings } : {}),
  };
}

const DOCUMENT_CHANGES = new Set(["position", "remove", "add", "replace"]);

/** One store per open workflow: React Flow's own pattern, so two editors never share state. */
export function createEditorStore(stored: StoredWorkflow, options: EditorStoreOptions = {}): EditorStore {
  const pastRun = options.pastRun ?? null;
  const readOnly = pastRun !== null || (options.readOnly ?? false);
  const flow = documentToFlow(stored);
  return createStore<EditorState>()((set, get) => {
    const snapshot = (): GraphSnapshot => ({ meta: get().meta, nodes: get().nodes, edges: get().edges });
    /** Applies an undoable change to the document (none in a read-only editor). */
    const commit = (
      change: Partial<Pick<EditorState, "meta" | "nodes" | "edges">>,
      coalesceKey: string | null = null,
    ) => {
      if (readOnly) return;
      const state = get();
      set({
        ...change,
        history: pushHistory(state.history, snapshot(), coalesceKey, Date.now()),
        save: { ...state.save, revision: state.save.revision + 1 },
      });
    };
    const touch = () => {
      if (!readOnly) set((state) => ({ save: { ...state.save, revision: state.save.revision + 1 } }));
    };
    const setRun = (update: (run: RunSliceState) => Partial<RunSliceState> | null) => {
      const patch = update(get().run);
      if (patch) set({ run: { ...get().run, ...patch } });
    };
    const setAttention = (update: (attention: AttentionState) => Partial<AttentionState> | null) => {
      const patch = update(get().attention);
      if (patch) set({ attention: { ...get().attention, ...patch } });
    };
    const restore = (target: GraphSnapshot, history: HistoryState) =>
      set((state) => ({
        ...withoutSelection(target),
        history,
        gestureStart: null,
        save: { ...state.save, revision: state.save.revision + 1 },
      }));

    return {
      workflowId: stored.id,
      readOnly,
      pastRun,
      mayAnswer: pastRun ? pastRun.mayAct : !readOnly,
      meta: metaOf(stored),
      ...flow,
      history: EMPTY_HISTORY,
      gestureStart: null,
      save: { ...INITIAL_SAVE, version: stored.version, updatedAt: stored.updatedAt },
      issues: { byBlock: {}, workflow: [] },
      attention: INITIAL_ATTENTION,
      ...createAttentionActions(setAttention, () => get().nodes.map((node) => node.id)),
      run: pastRun
        ? pastRunSlice(
            pastRun.runId,
            flow.nodes.map((node) => ({ id: node.id, name: node.data.name })),
          )
        : INITIAL_RUN_SLICE,
      estimateInput: null,
      setEstimateInput: (estimateInput) => set({ estimateInput }),
      ...createRunActions(setRun, () => get().nodes.map((node) => ({ id: node.id, name: node.data.name }))),

      onNodesChange: (all) => {
        // Read-only: selection and measurement only, never a move, resize or removal.
        const changes = readOnly
          ? all.filter((change) => change.type === "select" || (change.type === "dimensions" && !change.resizing))
          : all;
        const changesDocument = changes.some(
          (change) => DOCUMENT_CHANGES.has(change.type) || (change.type === "dimensions" && change.resizing),
        );
        set({ nodes: applyNodeChanges(changes, get().nodes) });
        if (changesDocument) touch();
      },
      onEdgesChange: (all) => {
        const changes = readOnly ? all.filter((change) => change.type === "select") : all;
        const removes = changes.some((change) => change.type === "remove");
        if (removes) commit({ edges: applyEdgeChanges(changes, get().edges) });
        else set({ edges: applyEdgeChanges(changes, get().edges) });
      },
      connect: (connection) => {
        const { nodes, edges } = get();
        const problem = canvasConnectionProblem(nodes, edges, connection);
        if (problem) return problem;
        const id = uniqueEdgeId(new Set(edges.map((edge) => edge.id)));
        commit({
          edges: connectEdge(edges, id, connection.source, connection.target, connection.sourceHandle ?? "out"),
        });
        return null;
      },
      addBlocks: (blocks, newEdges = []) => commit(addBlocks(get().nodes, get().edges, blocks, newEdges)),
      updateBlock: (id, patch, coalesceKey) =>
        commit({ nodes: updateNodeData(get().nodes, id, patch) }, coalesceKey ? `${id}:${coalesceKey}` : null),
      renameReferences: (id, previousName) => {
        const nodes = renameReferencesIn(get().nodes, id, previousName);
        if (nodes !== get().nodes) commit({ nodes }, `${id}:name`);
      },
      setEdgeCondition: (id, condition) =>
        commit({ edges: setEdgeCondition(get().edges, id, condition) }, `edge:${id}:condition`),
      setEdgeMaxRetries: (id, maxRetries) =>
        commit({ edges: setEdgeMaxRetries(get().edges, id, maxRetries) }, `edge:${id}:maxRetries`),
      updateMeta: (patch, coalesceKey) =>
        commit({ meta: { ...get().meta, ...patch } }, coalesceKey ? `meta:${coalesceKey}` : null),
      deleteSelection: () => {
        const { nodes, edges } = get();
        const ids = new Set(nodes.filter((node) => node.selected).map((node) => node.id));
        const edgeIds = new Set(edges.filter((edge) => edge.selected).map((edge) => edge.id));
        if (ids.size === 0 && edgeIds.size === 0) return;
        commit(removeBlocks(nodes, edges, ids, edgeIds));
      },
      deleteBlocks: (ids) => commit(removeBlocks(get().nodes, get().edges, new Set(ids))),
      reparent: (nodeId, parentId) => {
        if (readOnly) return;
        const next = reparentBlock(get().nodes, get().edges, nodeId, parentId);
        if (next.nodes !== get().nodes) {
          set(next);
          touch();
        }
      },
      applyPositions: (positions) =>
        commit({
          nodes: get().nodes.map((node) => {
            const placed = positions.get(node.id);
            if (!placed) return node;
            const next: EditorNode = { ...node, position: { x: placed.x, y: placed.y } };
            if (node.type === "container" && placed.width && placed.height) {
              next.width = placed.width;
              next.height = placed.height;
            }
            return next;
          }),
        }),
      beginGesture: () => set({ gestureStart: snapshot() }),
      endGesture: () => {
        const { gestureStart, nodes, history } = get();
        if (!gestureStart) return;
        const moved = graphMoved(gestureStart.nodes, nodes);
        set({ gestureStart: null, history: moved ? pushHistory(history, gestureStart, null, Date.now()) : history });
      },
      selectOnly: (ids) => {
        const wanted = new Set(ids);
        set({
          nodes: get().nodes.map((node) =>
            Boolean(node.selected) === wanted.has(node.id) ? node : { ...node, selected: wanted.has(node.id) },
          ),
          edges: get().edges.map((edge) => (edge.selected ? { ...edge, selected: false } : edge)),
        });
      },
      selectEdge: (id) =>
        set({
          nodes: get().nodes.map((node) => (node.selected ? { ...node, selected: false } : node)),
          edges: get().edges.map((edge) =>
            Boolean(edge.selected) === (edge.id === id) ? edge : { ...edge, selected: edge.id === id },
          ),
        }),
      selectAll: () => set({ nodes: get().nodes.map((node) => (node.selected ? node : { ...node, selected: true })) }),
      undo: () => {
        if (readOnly) return;
        const { history } = get();
        const previous = history.past.at(-1);
        if (!previous) return;
        restore(previous, {
          past: history.past.slice(0, -1),
          future: [snapshot(), ...history.future],
          lastCoalesceKey: null,
          lastCommitAt: 0,
        });
      },
      redo: () => {
        if (readOnly) return;
        const { history } = get();
        const next = history.future[0];
        if (!next) return;
        restore(next, {
          past: [...history.past, snapshot()],
          future: history.future.slice(1),
          lastCoalesceKey: null,
          lastCommitAt: 0,
        });
      },
      toDocument: () => flowToDocument(get().meta, get().nodes, get().edges),

      saveStarted: (revision) => set((state) => ({ save: { ...state.save, inFlightRevision: revision, error: null } })),
      saveSucceeded: (saved, revision) =>
        set((state) => ({
          save: {
            ...state.save,
            version: saved.version,
            updatedAt: saved.updatedAt,
            savedRevision: revision,
            inFlightRevision: null,
            error: null,
            conflict: null,
          },
        })),
      saveFailed: (message) => set((state) => ({ save: { ...state.save, inFlightRevision: null, error: message } })),
      saveConflicted: (current) =>
        set((state) => ({ save: { ...state.save, inFlightRevision: null, conflict: { current } } })),
      replaceDocument: (document) => commit({ meta: metaOf(document), ...documentToFlow(document) }),
      copilotProposal: null,
      showCopilotProposal: (answer, askedAtRevision) => {
        if (!answer.proposal) return set({ copilotProposal: null });
        const changed = new Set(answer.proposal.diff.blocksChanged.map((block) => block.id));
        const preview = copilotPreview({ nodes: get().nodes, edges: get().edges }, answer.proposal.document, changed);
        set({ copilotProposal: { answer, askedAtRevision, preview } });
      },
      acceptCopilotProposal: () => {
        const { copilotProposal, save } = get();
        if (!copilotProposal?.answer.proposal) return "There is no proposal to accept.";
        const stale = staleProposalReason(copilotProposal, save);
        if (stale) return stale;
        set({ copilotProposal: null });
        const document = copilotProposal.answer.proposal.document;
        commit({ meta: metaOf(document), ...documentToFlow(document) });
        return null;
      },
      rejectCopilotProposal: () => set({ copilotProposal: null }),
      copilotQuestion: null,
      askCopilot: (question) =>
        set((state) => ({
          copilotQuestion: question ? { ...question, asked: (state.copilotQuestion?.asked ?? 0) + 1 } : null,
        })),
      loadStored: (fresh) =>
        set((state) => ({
          meta: metaOf(fresh),
          ...documentToFlow(fresh),
          history: EMPTY_HISTORY,
          gestureStart: null,
          save: {
            ...INITIAL_SAVE,
            version: fresh.version,
            updatedAt: fresh.updatedAt,
            revision: state.save.revision + 1,
            savedRevision: state.save.revision + 1,
          },
        })),
      setIssues: (issues) => set({ issues }),
    };
  });
}
