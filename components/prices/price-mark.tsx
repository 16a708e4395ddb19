"use client";

import { Tag } from "lucide-react";
import type { AppliedPrice } from "@/contract";
import { appliedPriceText } from "./price-text";

/**
 * "override" beside a figure priced at the workspace's own price rather than the catalog's; its
 * tooltip names the rate. Nothing for catalog prices or the server's price file (which prices the
 * offline model on every run, so a mark there would only be noise).
 */
export function PriceOverrideMark({ price, testId }: { price: AppliedPrice | undefined; testId?: string }) {
  if (price?.source !== "workspace-override") return null;
  const text = `Priced at ${appliedPriceText(price)}`;
  return (
    <span
      className="inline-flex shrink-0 items-center gap-0.5 rounded bg-violet-100 px-1 text-[10px] font-medium text-violet-800"
      title={text}
      data-testid={testId}
      data-price-source={price.source}
    >
      <Tag className="h-2.5 w-2.5" aria-hidden />
      override
    </span>
  );
}
