"use client";

import { inputClass } from "../fields/field-props";
import { useTestingPart } from "./use-testing";

/** The page a test run reads instead of fetching the Web block's URL: its title and text. */
export function PageSampleEditor({ blockId }: { blockId: string }) {
  const [sample, setSample] = useTestingPart(blockId, "page");
  return (
    <div className="space-y-1.5" data-testid="test-sample-page">
      <label className="flex items-center gap-2 text-xs text-slate-700">
        <input
          type="checkbox"
          checked={sample !== undefined}
          onChange={(event) => setSample(event.target.checked ? { title: "", text: "" } : undefined)}
          data-testid="test-sample-page-enabled"
        />
        Answer the page read with this sample
      </label>
      {sample !== undefined && (
        <>
          <label className="block text-[11px] text-slate-600">
            Title
            <input
              className={`${inputClass} mt-0.5`}
              value={sample.title ?? ""}
              data-testid="test-sample-page-title"
              onChange={(event) => setSample({ ...sample, title: event.target.value })}
            />
          </label>
          <label className="block text-[11px] text-slate-600">
            Text
            <textarea
              className={`${inputClass} mt-0.5 text-xs`}
              rows={4}
              value={sample.text}
              data-testid="test-sample-page-text"
              onChange={(event) => setSample({ ...sample, text: event.target.value })}
            />
          </label>
        </>
      )}
    </div>
  );
}
