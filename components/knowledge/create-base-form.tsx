"use client";

import { Plus } from "lucide-react";
import { useState } from "react";
import { OFFLINE_EMBEDDER_ID } from "@/contract";

interface Props {
  pending: boolean;
  onCreate(input: { name: string; embeddingModel: string; chunkSize: number; chunkOverlap: number }): Promise<void>;
}

/** Name, embedding model and chunking of a new knowledge base. */
export function CreateBaseForm({ pending, onCreate }: Props) {
  const [name, setName] = useState("");
  const [embeddingModel, setEmbeddingModel] = useState(OFFLINE_EMBEDDER_ID);
  const [chunkSize, setChunkSize] = useState(1000);
  const [chunkOverlap, setChunkOverlap] = useState(200);

  return (
    <form
      className="space-y-2 rounded border border-slate-200 bg-white p-3"
      aria-label="New knowledge base"
      onSubmit={(event) => {
        event.preventDefault();
        if (!name.trim()) return;
        void onCreate({ name: name.trim(), embeddingModel: embeddingModel.trim(), chunkSize, chunkOverlap }).then(() =>
          setName(""),
        );
      }}
    >
      <label className="block space-y-0.5 text-xs text-slate-600">
        <span>Name</span>
        <input
          className="w-full rounded border border-slate-300 px-2 py-1 text-sm text-slate-900"
          placeholder="Knowledge base name"
          value={name}
          onChange={(event) => setName(event.target.value)}
        />
      </label>
      <label className="block space-y-0.5 text-xs text-slate-600">
        <span>Embedding model</span>
        <input
          className="w-full rounded border border-slate-300 px-2 py-1 font-mono text-xs text-slate-900"
          title="offline/hash-embed, openai/text-embedding-3-small, google/gemini-embedding-001, ollama/nomic-embed-text, openai-compatible/<model>"
          value={embeddingModel}
          onChange={(event) => setEmbeddingModel(event.target.value)}
        />
      </label>
      <div className="flex gap-2 text-xs text-slate-600">
        <label className="flex items-center gap-1">
          Chunk tokens
          <input
            type="number"
            className="w-20 rounded border border-slate-300 px-1 py-0.5"
            value={chunkSize}
            min={50}
            max={8000}
            onChange={(event) => setChunkSize(Number(event.target.value))}
          />
        </label>
        <label className="flex items-center gap-1">
          Overlap
          <input
            type="number"
            className="w-16 rounded border border-slate-300 px-1 py-0.5"
            value={chunkOverlap}
            min={0}
            onChange={(event) => setChunkOverlap(Number(event.target.value))}
          />
        </label>
      </div>
      <button type="submit" className="btn-primary w-full justify-center" disabled={pending || !name.trim()}>
        <Plus size={14} aria-hidden /> Create knowledge base
      </button>
    </form>
  );
}
