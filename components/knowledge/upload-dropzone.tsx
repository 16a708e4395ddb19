"use client";

import { Upload } from "lucide-react";
import { useRef, useState } from "react";
import { uploadDocuments } from "./upload-documents";
import { countOf } from "@/contract";

const ACCEPT = ".txt,.md,.markdown,.html,.htm,.pdf,.csv,.json";

interface Props {
  knowledgeBaseId: string;
  onUploaded(): void;
}

interface UploadState {
  label: string;
  fraction: number;
  error?: string;
}

/** Drop files (or pick them) to upload; shows bytes sent as they go, then the server's answer. */
export function UploadDropzone({ knowledgeBaseId, onUploaded }: Props) {
  const input = useRef<HTMLInputElement>(null);
  const [dragging, setDragging] = useState(false);
  const [upload, setUpload] = useState<UploadState | null>(null);

  async function send(files: File[]) {
    if (files.length === 0) return;
    const label = files.length === 1 ? files[0]!.name : countOf(files.length, "file");
    setUpload({ label, fraction: 0 });
    try {
      await uploadDocuments(knowledgeBaseId, files, (fraction) => setUpload({ label, fraction }));
      setUpload(null);
      onUploaded();
    } catch (error) {
      setUpload({ label, fraction: 0, error: error instanceof Error ? error.message : String(error) });
    }
  }

  return (
    <div>
      <div
        role="button"
        tabIndex={0}
        aria-label="Drop files here or click to choose"
        data-testid="dropzone"
        className={`flex cursor-pointer flex-col items-center gap-1 rounded border-2 border-dashed px-4 py-6 text-sm ${dragging ? "border-indigo-500 bg-indigo-50" : "border-slate-300 bg-white"}`}
        onClick={() => input.current?.click()}
        onKeyDown={(event) => {
          if (event.key === "Enter" || event.key === " ") input.current?.click();
        }}
        onDragOver={(event) => {
          event.preventDefault();
          setDragging(true);
        }}
        onDragLeave={() => setDragging(false)}
        onDrop={(event) => {
          event.preventDefault();
          setDragging(false);
          void send([...event.dataTransfer.files]);
        }}
      >
        <Upload size={18} className="text-slate-500" aria-hidden />
        <span>Drop files here, or click to choose</span>
        <span className="text-xs text-slate-500">txt, md, html, pdf, csv, json; up to 10 MB each</span>
        <input
          ref={input}
          type="file"
          multiple
          accept={ACCEPT}
          className="hidden"
          data-testid="file-input"
          onChange={(event) => {
            void send([...(event.target.files ?? [])]);
            event.target.value = "";
          }}
        />
      </div>
      {upload && (
        <div className="mt-2 text-xs" role="status">
          {upload.error ? (
            <p className="text-red-700" role="alert">
              Upload of {upload.label} refused: {upload.error}
            </p>
          ) : (
            <>
              <p>
                Uploading {upload.label}: {Math.round(upload.fraction * 100)}%
              </p>
              <progress className="w-full" max={1} value={upload.fraction} aria-label="Upload progress" />
            </>
          )}
        </div>
      )}
    </div>
  );
}
