import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import type { WorkflowEstimate } from "@/contract";
import { EstimateFigures } from "./estimate-badges";

const estimate: WorkflowEstimate = {
  estimate: true,
  blocks: [],
  total: { low: 0.0000071, expected: 0.00002211, high: 0.4129 },
  unpriced: [],
  historyRuns: 0,
};

describe("the Run form's estimate", () => {
  it("reads as an estimate: two significant digits below a cent, cents above, never the raw decimals", () => {
    const html = renderToStaticMarkup(<EstimateFigures estimate={estimate} />);
    expect(html).toContain("~$0.000022");
    expect(html).toContain("low $0.0000071, high $0.41");
    expect(html).not.toContain("0.00002211");
    expect(html).not.toContain("0.4129");
  });
});
