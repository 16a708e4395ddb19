"use client";

import { Search } from "lucide-react";
import { useState } from "react";
import { api, type SearchHit, type SearchMode, countOf } from "@/contract";

const SCORE_MEANING: Record<SearchMode, string> = {
  hybrid: "reciprocal rank fusion of keyword and vector ranks; 1.00 = first in both",
  keyword: "full-text rank, 0 to 1",
  vector: "cosine similarity",
};

/** Try a query against the base and see each result's score and source. */
export function SearchPanel({ knowledgeBaseId }: { knowledgeBaseId: string }) {
  const [query, setQuery] = useState("");
  const [mode, setMode] = useState<SearchMode>("hybrid");
  const [topK, setTopK] = useState(5);
  const [results, setResults] = useState<SearchHit[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [searching, setSearching] = useState(false);

  async function run() {
    if (!query.trim()) return;
    setSearching(true);
    setError(null);
    try {
      setResults((await api.knowledge.search(knowledgeBaseId, { query, topK, mode })).results);
    } catch (caught) {
      setError(caught instanceof Error ? caught.message : String(caught));
    } finally {
      setSearching(false);
    }
  }

  return (
    <section aria-label="Search">
      <form
        className="flex gap-2"
        onSubmit={(event) => {
          event.preventDefault();
          void run();
        }}
      >
        <input
          className="flex-1 rounded border border-slate-300 px-2 py-1 text-sm"
          placeholder="Try a search, e.g. What is our refund policy?"
          aria-label="Search query"
          value={query}
          onChange={(event) => setQuery(event.target.value)}
        />
        <select
          className="rounded border border-slate-300 px-1 text-sm"
          aria-label="Mode"
          value={mode}
          onChange={(event) => setMode(event.target.value as SearchMode)}
        >
          <option value="hybrid">Hybrid</option>
          <option value="keyword">Keyword</option>
          <option value="vector">Vector</option>
        </select>
        <input
          type="number"
          className="w-14 rounded border border-slate-300 px-1 text-sm"
          aria-label="Results"
          min={1}
          max={100}
          value={topK}
          onChange={(event) => setTopK(Number(event.target.value))}
        />
        <button type="submit" className="btn-secondary" disabled={searching}>
          <Search size={14} aria-hidden /> Search
        </button>
      </form>
      {error && (
        <p className="mt-2 text-sm text-red-700" role="alert">
          {error}
        </p>
      )}
      {results && (
        <div className="mt-3">
          <p className="mb-2 text-xs text-slate-500">
            {countOf(results.length, "result")} · score: {SCORE_MEANING[mode]}
          </p>
          <ol className="space-y-2" aria-label="Search results">
            {results.map((result) => (
              <li
                key={`${result.documentId}:${result.chunkIndex}`}
                className="rounded border border-slate-200 bg-white p-2 text-sm"
                data-testid="search-result"
              >
                <p className="mb-1 flex justify-between text-xs text-slate-500">
                  <span>
                    {result.documentName} · chunk #{result.chunkIndex}
                  </span>
                  <span className="font-mono" data-testid="search-score">
                    {result.score.toFixed(3)}
                  </span>
                </p>
                <p className="line-clamp-4 whitespace-pre-wrap">{result.content}</p>
              </li>
            ))}
          </ol>
        </div>
      )}
    </section>
  );
}
