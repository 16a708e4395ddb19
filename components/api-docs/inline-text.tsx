import type { ReactNode } from "react";

/**
 * The document's descriptions use two marks of Markdown: `code` and **bold**. They are shown as
 * such; everything else is plain text (never HTML, so nothing in a description is markup).
 */
export function InlineText({ text }: { text: string }) {
  const parts: ReactNode[] = [];
  const pattern = /`([^`]+)`|\*\*([^*]+)\*\*/g;
  let last = 0;
  for (const match of text.matchAll(pattern)) {
    if (match.index > last) parts.push(text.slice(last, match.index));
    parts.push(
      match[1] !== undefined ? (
        <code key={match.index} className="rounded bg-slate-100 px-1 font-mono text-[0.85em]">
          {match[1]}
        </code>
      ) : (
        <strong key={match.index}>{match[2]}</strong>
      ),
    );
    last = match.index + match[0].length;
  }
  if (last < text.length) parts.push(text.slice(last));
  return <>{parts}</>;
}
