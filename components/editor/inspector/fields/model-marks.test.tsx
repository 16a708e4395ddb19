import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import type { ModelSummary } from "@/contract";
import { ModelOption } from "./model-marks";

const model = (provider: string, id: string): ModelSummary => ({
  id: `${provider}/${id}`,
  provider,
  logo: `/providers/${provider}.svg`,
  label: `${provider}: ${id}`,
  prices: null,
  unpriced: true,
  providerOptions: [],
});

describe("the model picker's options", () => {
  it("show each model's provider logo beside its label, named for screen readers", () => {
    for (const option of [model("anthropic", "claude-x"), model("offline", "echo")]) {
      const html = renderToStaticMarkup(
        <ModelOption model={option} selected={false} active={false} onPick={() => {}} />,
      );
      const logo = /<img[^>]*data-testid="model-provider-logo"[^>]*>/.exec(html)?.[0] ?? "";
      expect(logo).toContain(`src="${option.logo}"`);
      expect(logo).toContain(`alt="${option.provider}"`);
      // The logo comes before the label, inside the label's span.
      expect(html.indexOf(logo)).toBeLessThan(html.indexOf(option.label));
    }
  });
});
