import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { CreateBaseForm } from "./create-base-form";

/** The labels a person reads beside each field of a new knowledge base, not only a screen reader's. */
function visibleLabels(markup: string): string[] {
  return [...markup.matchAll(/<label[^>]*>(?:<span>)?([^<]+)/g)].map((match) => match[1]!.trim());
}

describe("the new knowledge base form", () => {
  it("labels every field where people see it, the embedding model included", () => {
    const markup = renderToStaticMarkup(<CreateBaseForm pending={false} onCreate={async () => {}} />);
    expect(visibleLabels(markup)).toEqual(["Name", "Embedding model", "Chunk tokens", "Overlap"]);
  });
});
