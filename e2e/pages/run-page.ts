import { readFileSync } from "node:fs";
import path from "node:path";
import { expect, type APIRequestContext, type Locator, type Page } from "@playwright/test";
import type { ApiRun } from "@/contract";

/** The support-routing example, imported through the API with every model set to `model`. */
export async function importSupportRouting(request: APIRequestContext, model = "openai/gpt-4o-mini"): Promise<string> {
  const document = JSON.parse(readFileSync(path.join(process.cwd(), "examples", "support-routing.json"), "utf8")) as {
    name: string;
    blocks: Array<{ config: Record<string, unknown> }>;
  };
  for (const block of document.blocks) if ("model" in block.config) block.config.model = model;
  document.name = `${document.name} ${Date.now()}`;
  const response = await request.post("/api/workflows", { data: document });
  expect(response.status(), await response.text()).toBe(201);
  return ((await response.json()) as { id: string }).id;
}

/** A customer message about support, `words` long: the test LLM server echoes it 40 ms a word. */
export function supportMessage(words: number): string {
  const filler = "my parcel arrived broken and the box was wet so please help me with a refund".split(" ");
  const parts = ["I need support:"];
  for (let index = 0; parts.length < words; index++) parts.push(filler[index % filler.length]!);
  return parts.join(" ");
}

/** The run side of the editor: toolbar controls, node badges, console, trace and history. */
export class RunPage {
  constructor(readonly page: Page) {}

  get status(): Locator {
    return this.page.getByTestId("run-status");
  }

  nodeStatus(blockId: string): Locator {
    return this.page.getByTestId(`block-run-status-${blockId}`);
  }

  nodeText(blockId: string): Locator {
    return this.page.getByTestId(`block-run-text-${blockId}`);
  }

  nodeFigure(blockId: string, figure: "duration" | "tokens" | "cost"): Locator {
    return this.page.getByTestId(`block-run-${figure}-${blockId}`);
  }

  async startRun(input: Record<string, string>) {
    await this.page.getByTestId("run-button").click();
    for (const [name, value] of Object.entries(input)) await this.page.getByTestId(`run-input-${name}`).fill(value);
    await this.page.getByTestId("run-submit").click();
    await expect(this.page.getByTestId("run-form")).toBeHidden();
  }

  async expectStatus(status: string, timeout = 30_000) {
    try {
      await expect(this.status).toHaveAttribute("data-status", status, { timeout });
    } catch (error) {
      // Say why the run ended otherwise: its stored error, so a failure in CI can be read without a trace viewer.
      await this.page
        .getByTestId("run-tab-trace")
        .click({ timeout: 2_000 })
        .catch(() => {});
      const runId = await this.page
        .getByTestId("trace-panel")
        .getAttribute("data-run-id")
        .catch(() => null);
      const stored = runId
        ? await this.page.request
            .get(`/api/runs/${runId}`)
            .then((response) => response.text())
            .catch(() => "")
        : "";
      throw new Error(
        `${error instanceof Error ? error.message : String(error)}\nthe run as stored: ${stored.slice(0, 2000)}`,
      );
    }
  }

  /** The run the canvas follows, read from the trace panel. */
  async runId(): Promise<string> {
    await this.page.getByTestId("run-tab-trace").click();
    const id = await this.page.getByTestId("trace-panel").getAttribute("data-run-id");
    return id!;
  }

  async apiRun(runId: string): Promise<ApiRun> {
    const response = await this.page.request.get(`/api/runs/${runId}`);
    expect(response.ok()).toBe(true);
    return (await response.json()) as ApiRun;
  }

  edge(edgeId: string): Locator {
    return this.page.getByTestId(`rf__edge-${edgeId}`).locator("path.edge-taken");
  }
}

/** A dollar figure the UI shows ("$0.00012", "≈ $0.1") as a number. */
export function dollars(text: string): number {
  const match = /\$([\d,]+\.\d+)/.exec(text);
  if (!match) throw new Error(`no dollar figure in "${text}"`);
  return Number(match[1]!.replace(/,/g, ""));
}

export function tokenCount(text: string): number {
  const match = /([\d,]+)/.exec(text);
  if (!match) throw new Error(`no token count in "${text}"`);
  return Number(match[1]!.replace(/,/g, ""));
}
