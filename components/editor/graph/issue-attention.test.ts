import { describe, expect, it } from "vitest";
import type { StoredWorkflow } from "@/contract";
import { lookupBlockType } from "@/blocks";
import { validateWorkflow } from "@/executor";
import { createEditorStore } from "../store/editor-store";
import { fixListItems, isHint, issueText, nodeIssueText } from "./issue-attention";
import { issuesByBlock } from "./issues-by-block";
import { createBlock } from "./new-block";

function storeWithFreshRouter() {
  const stored: StoredWorkflow = {
    id: "wf1",
    version: 1,
    name: "Routing",
    description: "",
    variables: {},
    blocks: [
      {
        id: "start",
        type: "start",
        name: "Start",
        position: { x: 0, y: 0 },
        parentId: null,
        enabled: true,
        config: { inputs: [] },
      },
    ],
    edges: [],
    createdAt: "2026-11-01T00:00:00.000Z",
    updatedAt: "2026-11-01T00:00:00.000Z",
  };
  const store = createEditorStore(stored);
  const router = createBlock("router", { x: 300, y: 0 }, { ids: new Set(["start"]), names: new Set(["start"]) });
  store.getState().addBlocks([router]);
  const validate = () => {
    const state = store.getState();
    const document = state.toDocument();
    state.setIssues(issuesByBlock(document, validateWorkflow(document, lookupBlockType)));
  };
  validate();
  const fixList = () => fixListItems(store.getState().nodes, store.getState().issues, store.getState().attention);
  return { store, router, validate, fixList };
}

describe("a fresh block's empty required field", () => {
  it("is a hint, in plain words, until its field is touched", () => {
    const { store, router, fixList } = storeWithFreshRouter();
    expect(fixList()).toEqual([
      {
        blockId: router.id,
        blockName: "Router",
        fieldKey: "prompt",
        fieldLabel: "Routing instructions",
        text: "Write the routing instructions",
        hint: true,
      },
    ]);
    store.getState().touchField(router.id, "temperature");
    expect(fixList()[0]!.hint).toBe(true);
    store.getState().touchField(router.id, "prompt");
    expect(fixList()[0]).toMatchObject({ fieldKey: "prompt", text: "Write the routing instructions", hint: false });
  });

  it("becomes a problem once a run is tried, and the fix list opens", () => {
    const { store, fixList } = storeWithFreshRouter();
    expect(store.getState().attention.fixListOpen).toBe(false);
    store.getState().attemptRun();
    expect(store.getState().attention.fixListOpen).toBe(true);
    expect(fixList().map((item) => item.hint)).toEqual([false]);
  });

  it("stays a hint on a block added after the run was tried", () => {
    const { store, router, validate, fixList } = storeWithFreshRouter();
    store.getState().attemptRun();
    const later = createBlock(
      "router",
      { x: 600, y: 0 },
      { ids: new Set(["start", router.id]), names: new Set(["start", "router"]) },
    );
    store.getState().addBlocks([later]);
    validate();
    expect(fixList().map((item) => [item.blockId, item.hint])).toEqual([
      [router.id, false],
      [later.id, true],
    ]);
  });

  it("leaves the list once filled", () => {
    const { store, router, validate, fixList } = storeWithFreshRouter();
    const node = store.getState().nodes.find((candidate) => candidate.id === router.id)!;
    store
      .getState()
      .updateBlock(router.id, { config: { ...node.data.config, prompt: "Send billing questions to Billing" } });
    validate();
    expect(fixList()).toEqual([]);
  });
});

describe("isHint", () => {
  const block = { id: "r", data: { type: "router", name: "Router", config: { prompt: "x", temperature: 9 } } };
  const fresh = { touched: {}, runAttemptedFor: {} };

  it("is never a hint when the field holds a wrong value rather than nothing", () => {
    expect(
      isHint(block, { path: "config.temperature", message: "Block 'Router': Temperature: must be at most 2" }, fresh),
    ).toBe(false);
  });

  it("is never a hint for a problem that is not about one field", () => {
    expect(isHint(block, { path: "", message: "Block 'Router' is connected to itself" }, fresh)).toBe(false);
  });
});

describe("issueText", () => {
  it("drops what the place already says: the block, then the field's label", () => {
    expect(
      issueText("Block 'Router': Routing instructions: Write the routing instructions", "Routing instructions"),
    ).toBe("Write the routing instructions");
    expect(
      issueText("Block 'Router': <Nope.x> refers to no block named or with id 'Nope'", "Routing instructions"),
    ).toBe("<Nope.x> refers to no block named or with id 'Nope'");
  });
});

describe("nodeIssueText", () => {
  it("says what an empty field needs alone, and names the field of any other problem", () => {
    expect(
      nodeIssueText("router", {
        path: "config.prompt",
        message: "Block 'Router': Routing instructions: Write the routing instructions",
      }),
    ).toBe("Write the routing instructions");
    expect(
      nodeIssueText("router", {
        path: "config.temperature",
        message: "Block 'Router': Temperature: must be at most 2",
      }),
    ).toBe("Temperature: must be at most 2");
  });
});
