import { expect, type Locator, type Page } from "@playwright/test";

/** The Variables panel in the workflow settings (shown with no block selected). */
export class VariablesPanel {
  constructor(readonly page: Page) {}

  get panel(): Locator {
    return this.page.getByTestId("variables-panel");
  }

  row(index: number): Locator {
    return this.panel.getByTestId("variable-row").nth(index);
  }

  /** Adds a variable and gives it a name, a type and a value, as typed into the panel. */
  async add(name: string, type: "Text" | "Number" | "True/false" | "JSON", value: string) {
    const index = await this.panel.getByTestId("variable-row").count();
    await this.panel.getByTestId("variables-add").click();
    const row = this.row(index);
    await row.getByLabel("Variable name").fill(name);
    await row.getByLabel("Variable type").selectOption({ label: type });
    if (type === "True/false") await row.getByLabel("Variable value").setChecked(value === "true");
    else await row.getByLabel("Variable value").fill(value);
  }

  /** The row of the variable with this name (stored documents need not keep the order variables were added in). */
  named(name: string): Locator {
    return this.panel
      .getByTestId("variable-row")
      .filter({ has: this.page.locator(`input[aria-label="Variable name"][value="${name}"]`) });
  }

  async expectVariable(name: string, type: string, value: string) {
    const row = this.named(name);
    await expect(row.getByLabel("Variable name")).toHaveValue(name);
    await expect(row.getByLabel("Variable type").locator("option:checked")).toHaveText(type);
    // A JSON value is in a code editor (contenteditable), the others in form controls.
    if (type === "JSON") await expect(row.getByLabel("Variable value")).toHaveText(value);
    else await expect(row.getByLabel("Variable value")).toHaveValue(value);
  }
}
