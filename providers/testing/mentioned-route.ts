import type { RouteCandidate } from "../offline/route-choice";

const GENERIC_WORDS = new Set(["agent", "block", "route", "path", "the"]);

function namesOf(candidate: RouteCandidate): string[] {
  const words = candidate.title
    .split(/\s+/)
    .filter((word) => word.length >= 4 && !GENERIC_WORDS.has(word.toLowerCase()));
  return [candidate.id, candidate.title, ...words].filter(Boolean);
}

/**
 * The test LLM server's routing answer: the candidate mentioned first in the request, by id, by
 * name or by a distinctive word of its name ("support" for "Support Agent"); the first candidate
 * when none is mentioned. Browser tests steer a route by naming it in the message.
 */
export function pickMentionedRoute(candidates: readonly RouteCandidate[], request: string): string {
  const haystack = request.toLowerCase();
  let best: { id: string; at: number } | undefined;
  for (const candidate of candidates) {
    for (const name of namesOf(candidate)) {
      const at = haystack.search(new RegExp(`\\b${name.toLowerCase().replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}\\b`));
      if (at >= 0 && (!best || at < best.at)) best = { id: candidate.id, at };
    }
  }
  return best?.id ?? candidates[0]?.id ?? "";
}
