import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { FIELD_INPUT_CLASS, FormField } from "./form-field";

describe("a form field", () => {
  it("wraps its control in the label a person reads, so the control is named by it", () => {
    const html = renderToStaticMarkup(
      <FormField label="Expires (optional)" className="min-w-48 flex-1">
        <input type="date" className={FIELD_INPUT_CLASS} />
      </FormField>,
    );
    expect(html).toBe(
      '<label class="flex flex-col gap-1 text-xs text-slate-600 min-w-48 flex-1">Expires (optional)<input type="date" class="rounded border border-slate-300 px-2 py-1 text-sm text-slate-900"/></label>',
    );
  });
});
