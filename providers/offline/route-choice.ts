import { keywordsOf } from "./keywords";

/**
 * How the offline model answers a routing prompt. The router block (blocks/router/router-prompt.ts)
 * describes each candidate as lines `ID:`, `Type:`, `Title:`, `Description:` and `System Prompt:`
 * separated by `---`; the offline model reads those lines back and picks the candidate whose words
 * overlap most with the request's. Real models get the same prompt: nothing here changes it.
 */
export interface RouteCandidate {
  id: string;
  title: string;
  /** The description and system prompt lines, when the prompt has them. */
  about: string;
}

const FIELD = /^(Type|Title|Description|System Prompt): ?(.*)$/;

/** The candidates a routing prompt lists, in order; empty when the text is not a routing prompt. */
export function routeCandidates(systemText: string): RouteCandidate[] {
  const candidates: RouteCandidate[] = [];
  let current: RouteCandidate | undefined;
  for (const line of systemText.split(/\r?\n/)) {
    const id = /^ID: *(\S+) *$/.exec(line);
    if (id) {
      current = { id: id[1] ?? "", title: "", about: "" };
      candidates.push(current);
      continue;
    }
    const field = current && FIELD.exec(line);
    if (!current || !field) {
      current = undefined;
      continue;
    }
    if (field[1] === "Title") current.title = (field[2] ?? "").trim();
    else if (field[1] !== "Type") current.about = `${current.about} ${field[2] ?? ""}`.trim();
  }
  return candidates.filter((candidate) => candidate.id);
}

/** Words of a block's title that say nothing about what it is for. */
const GENERIC_TITLE_WORDS = new Set(["agent", "block", "route", "path", "step", "node"]);

/** A title word counts three times a word of the description or system prompt: it is what the builder named the path. */
const TITLE_WEIGHT = 3;

export interface RouteScore {
  id: string;
  score: number;
}

/** Each candidate's overlap with the request: title keywords weigh three, the rest one each. */
export function scoreRoutes(candidates: readonly RouteCandidate[], request: string): RouteScore[] {
  const asked = new Set(keywordsOf(request));
  return candidates.map((candidate) => {
    const titleWords = new Set(
      [...keywordsOf(candidate.title), ...keywordsOf(candidate.id.replace(/[_-]+/g, " "))].filter(
        (word) => !GENERIC_TITLE_WORDS.has(word),
      ),
    );
    const aboutWords = keywordsOf(candidate.about).filter((word) => !titleWords.has(word));
    let score = 0;
    for (const word of titleWords) if (asked.has(word)) score += TITLE_WEIGHT;
    for (const word of aboutWords) if (asked.has(word)) score += 1;
    return { id: candidate.id, score };
  });
}

/** The candidate overlapping the request most; on a tie (or no overlap at all) the first listed of the best. */
export function chooseRoute(candidates: readonly RouteCandidate[], request: string): string {
  let best: RouteScore | undefined;
  for (const entry of scoreRoutes(candidates, request)) if (!best || entry.score > best.score) best = entry;
  return best?.id ?? "";
}
