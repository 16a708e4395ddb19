import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { PageHeader } from "./page-header";

describe("a page header", () => {
  it("says what the page is for and puts what can be done on the right", () => {
    const html = renderToStaticMarkup(
      <PageHeader actions={<button type="button">New workflow</button>}>
        <p>Secrets of the workspace.</p>
      </PageHeader>,
    );
    expect(html).toContain(
      '<div class="min-w-0 flex-1 space-y-1 text-sm text-slate-600"><p>Secrets of the workspace.</p></div>',
    );
    expect(html).toContain(
      '<div class="ml-auto flex items-center justify-end gap-3"><button type="button">New workflow</button></div>',
    );
    expect(html).not.toContain("<h1");
  });

  it("keeps a button row's height without buttons (a viewer's list does not move)", () => {
    expect(renderToStaticMarkup(<PageHeader className="mb-6" actions={false} />)).toBe(
      '<header class="flex min-h-8 flex-wrap items-center gap-3 mb-6"></header>',
    );
  });
});
