import { readFileSync } from "node:fs";
import path from "node:path";
import { expect, type APIRequestContext, type Locator, type Page } from "@playwright/test";

/** The ask-and-route approval example (examples/ask-approval.json), imported through the API. */
export async function importAskApproval(request: APIRequestContext): Promise<string> {
  const document = JSON.parse(readFileSync(path.join(process.cwd(), "examples", "ask-approval.json"), "utf8")) as {
    name: string;
  };
  document.name = `${document.name} ${Date.now()}`;
  const response = await request.post("/api/workflows", { data: document });
  expect(response.status(), await response.text()).toBe(201);
  return ((await response.json()) as { id: string }).id;
}

/** A waiting ask's form, in the run console or on its node. */
export class AskForm {
  constructor(readonly root: Locator) {}

  static inConsole(page: Page): AskForm {
    return new AskForm(page.getByTestId("run-console").locator('[data-testid^="ask-"]').first());
  }

  static onNode(page: Page, blockId: string): AskForm {
    return new AskForm(page.getByTestId(`block-${blockId}`).locator('[data-testid^="node-ask-"]').first());
  }

  get question(): Locator {
    return this.root.getByTestId("ask-question");
  }

  get answer(): Locator {
    return this.root.getByTestId("ask-answer");
  }

  async choose(choiceId: string, text?: string) {
    if (text !== undefined) await this.root.getByLabel("Answer text").fill(text);
    await this.root.getByTestId(`ask-choice-${choiceId}`).click();
  }
}
