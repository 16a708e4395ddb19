"use client";

import { CopyButton } from "@/components/ui/copy-button";

/** A block of text to copy (a call, a config), titled, with its copy button. */
export function Snippet({ title, text, testId }: { title: string; text: string; testId: string }) {
  return (
    <div className="rounded border border-slate-200">
      <div className="flex items-center justify-between border-b border-slate-200 bg-slate-50 px-2 py-0.5 text-xs text-slate-600">
        {title}
        <CopyButton text={text} testId={`${testId}-copy`} />
      </div>
      <pre className="overflow-x-auto p-2 text-xs" data-testid={testId}>
        {text}
      </pre>
    </div>
  );
}
