import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { DataCell, DataRow, DataTable } from "./data-table";

const render = (variant?: "plain") =>
  renderToStaticMarkup(
    <DataTable
      label="API keys"
      variant={variant}
      columns={[{ header: "Name" }, { header: "Cost", align: "right" }, { header: "Actions", hidden: true }]}
    >
      <DataRow data-testid="api-key-row" data-name="deploy" variant={variant}>
        <DataCell className="font-medium">deploy</DataCell>
        <DataCell className="text-right">$1.00</DataCell>
        <DataCell>
          <button type="button">Revoke</button>
        </DataCell>
      </DataRow>
    </DataTable>,
  );

describe("the data table of settings and list pages", () => {
  it("is a table named by its label, with a heading row and the rows given", () => {
    const html = render();
    expect(html).toMatch(/^<table [^>]*aria-label="API keys"/);
    expect(html).toContain('<th class="px-3 py-2 font-medium">Name</th>');
    expect(html).toContain('<tr data-testid="api-key-row" data-name="deploy" class="border-t border-slate-200">');
    expect(html).toContain('<td class="px-3 py-2 font-medium">deploy</td>');
  });

  it("keeps a column of buttons named for screen readers only, and right-aligns figures", () => {
    const html = render();
    expect(html).toContain('<th class="px-3 py-2"><span class="sr-only">Actions</span></th>');
    expect(html).toContain('<th class="px-3 py-2 font-medium text-right">Cost</th>');
    expect(html).toContain('<td class="px-3 py-2 text-right">$1.00</td>');
  });

  it("draws a boxed card in settings and a plain list that lights the row under the pointer", () => {
    expect(render()).toContain("rounded border border-slate-200 bg-white");
    expect(render()).toContain('<thead class="bg-slate-50 text-left text-xs text-slate-500">');
    const plain = render("plain");
    expect(plain).not.toContain("bg-slate-50 text-left");
    expect(plain).toContain('class="border-t border-slate-100 hover:bg-slate-50"');
  });
});
