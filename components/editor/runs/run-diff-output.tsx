"use client";

import type { OutputDiff } from "@/contract";

function shown(value: unknown): string {
  if (value === undefined) return "—";
  return typeof value === "string" ? value : JSON.stringify(value);
}

/** A block's output diff: the changed text with removals struck through and additions highlighted, or the changed JSON paths. */
export function RunDiffOutput({ diff }: { diff: OutputDiff }) {
  if (!diff.changed) return <span className="text-slate-400">same output</span>;
  if (diff.kind === "text") {
    return (
      <div data-testid="diff-text">
        <div className="mb-0.5 text-slate-500">{diff.path || "output"}</div>
        <p className="whitespace-pre-wrap rounded bg-slate-50 p-1 font-mono text-[11px]">
          {diff.parts.map((part, index) =>
            part.kind === "same" ? (
              <span key={index}>{part.text}</span>
            ) : part.kind === "removed" ? (
              <del key={index} className="bg-red-100 text-red-800" data-testid="diff-removed">
                {part.text}
              </del>
            ) : (
              <ins key={index} className="bg-green-100 text-green-800 no-underline" data-testid="diff-added">
                {part.text}
              </ins>
            ),
          )}
        </p>
      </div>
    );
  }
  return (
    <table className="w-full font-mono text-[11px]" data-testid="diff-json">
      <tbody>
        {diff.changes.map((change) => (
          <tr key={change.path} className="align-top">
            <td className="pr-2 text-slate-500">{change.path || "(whole output)"}</td>
            <td className="pr-2">
              <del className="bg-red-100 text-red-800">{shown(change.from)}</del>
            </td>
            <td>
              <ins className="bg-green-100 text-green-800 no-underline">{shown(change.to)}</ins>
            </td>
          </tr>
        ))}
        {diff.truncated && (
          <tr>
            <td colSpan={3} className="text-slate-500">
              More paths changed; the first 50 are shown.
            </td>
          </tr>
        )}
      </tbody>
    </table>
  );
}
