import { expect, type APIRequestContext, type Locator, type Page } from "@playwright/test";

/** Minimal workflow documents for editor tests, created through the public API. */
export interface TestBlock {
  id: string;
  type: string;
  name: string;
  position: { x: number; y: number };
  config?: Record<string, unknown>;
  parentId?: string | null;
}

export async function createWorkflow(
  request: APIRequestContext,
  document: { name: string; blocks: TestBlock[]; edges?: Array<Record<string, unknown>> },
): Promise<string> {
  const response = await request.post("/api/workflows", { data: { edges: [], ...document } });
  expect(response.status(), await response.text()).toBe(201);
  return ((await response.json()) as { id: string }).id;
}

export const START_BLOCK: TestBlock = {
  id: "start",
  type: "start",
  name: "Start",
  position: { x: 80, y: 160 },
  config: { inputs: [{ name: "message", type: "string" }] },
};

/** The canvas editor at /workflows/:id, driven the way a person would: mouse and keyboard. */
export class EditorPage {
  constructor(readonly page: Page) {}

  async open(workflowId: string) {
    await this.page.goto(`/workflows/${workflowId}`);
    await expect(this.page.getByTestId("editor")).toBeVisible();
    await expect(this.page.locator(".react-flow__node").first()).toBeVisible();
  }

  /**
   * Uses a toolbar action by its test id (`auto-layout`, `fit-view`, `undo`...): inline where the
   * window is wide enough, else from the "More actions" menu it moves into.
   */
  async toolbarAction(testId: string) {
    const inline = this.page.getByTestId("editor-toolbar").getByTestId(testId);
    if (await inline.isVisible()) return inline.click();
    await this.page.getByTestId("toolbar-more").click();
    await this.page.getByTestId(`menu-${testId}`).click();
  }

  get canvas(): Locator {
    return this.page.getByTestId("canvas");
  }

  /** A block on the canvas by its display name. */
  block(name: string): Locator {
    return this.page.locator(`.react-flow__node [data-block-name="${name}"]`);
  }

  async blockId(name: string): Promise<string> {
    const testId = await this.block(name).getAttribute("data-testid");
    return testId!.replace(/^block-/, "");
  }

  /** Drags a block type from the palette and drops it at a point of the canvas (pixels from its top left). */
  async dragFromPalette(type: string, at: { x: number; y: number }) {
    await this.page.getByTestId(`palette-item-${type}`).dragTo(this.canvas, { targetPosition: at });
  }

  /** Draws an edge from a source handle (`out`, `error`, `branch:<id>`, `body`) to a block's input. */
  async connect(sourceName: string, handle: string, targetName: string) {
    const sourceId = await this.blockId(sourceName);
    const targetId = await this.blockId(targetName);
    // A container grows to hold a block dropped into it, moving handles just after a drop: aim
    // at where the handles settled, not where they were a frame ago.
    const from = await this.settledBox(this.page.getByTestId(`handle-${sourceId}-${handle}`));
    const to = await this.settledBox(this.page.getByTestId(`handle-${targetId}-in`));
    await this.page.mouse.move(from.x + from.width / 2, from.y + from.height / 2);
    await this.page.mouse.down();
    await this.page.mouse.move(to.x + to.width / 2, to.y + to.height / 2, { steps: 12 });
    await this.page.mouse.up();
  }

  /** An element's box once two reads 100 ms apart agree. */
  private async settledBox(locator: Locator): Promise<{ x: number; y: number; width: number; height: number }> {
    let last = await locator.boundingBox();
    await expect
      .poll(async () => {
        await this.page.waitForTimeout(100);
        const next = await locator.boundingBox();
        const same =
          next !== null && last !== null && next.x === last.x && next.y === last.y && next.width === last.width;
        last = next;
        return same;
      })
      .toBe(true);
    return last!;
  }

  async select(name: string) {
    await this.block(name).locator(`[data-testid^="block-name-"]`).click();
    await expect(this.page.getByTestId("block-inspector")).toBeVisible();
  }

  /** Clicks empty canvas so keyboard shortcuts go to the editor rather than a field. */
  async focusCanvas() {
    await this.canvas.locator(".react-flow__pane").click({ position: { x: 5, y: 5 } });
  }

  async press(keys: string) {
    await this.page.keyboard.press(keys);
  }

  get saveStatus(): Locator {
    return this.page.getByTestId("save-status");
  }

  async expectSaved() {
    // Generous: under `next dev` the first save also compiles the route.
    await expect(this.saveStatus).toHaveAttribute("data-status", "saved", { timeout: 45_000 });
  }

  /** The inspector field of the selected block, by config key. */
  field(key: string): Locator {
    return this.page.getByTestId("block-inspector").getByTestId(`field-${key}`);
  }

  /** An option of the open `<` / `{{` completion, under a prompt box or in a code editor (CodeMirror's list). */
  completionOption(label: string): Locator {
    return this.page
      .locator('[data-testid="completion-option"], .cm-tooltip-autocomplete [role="option"]')
      .filter({ hasText: label });
  }

  async nodePosition(name: string): Promise<{ x: number; y: number }> {
    const box = await this.block(name).boundingBox();
    if (!box) throw new Error(`${name} is not visible`);
    return { x: Math.round(box.x), y: Math.round(box.y) };
  }

  async dragBlock(name: string, by: { x: number; y: number }) {
    const header = this.block(name).locator(`[data-testid^="block-name-"]`);
    const box = (await header.boundingBox())!;
    await this.page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
    await this.page.mouse.down();
    await this.page.mouse.move(box.x + box.width / 2 + by.x, box.y + box.height / 2 + by.y, { steps: 10 });
    await this.page.mouse.up();
  }

  async storedWorkflow(workflowId: string) {
    const response = await this.page.request.get(`/api/workflows/${workflowId}`);
    return (await response.json()) as {
      version: number;
      blocks: Array<TestBlock & { parentId: string | null }>;
      edges: Array<{ source: string; target: string; sourceHandle?: string }>;
    };
  }
}
