"use client";

import { Upload } from "lucide-react";
import { useRef } from "react";
import { type WorkflowDocumentInput, ApiError } from "@/contract";

interface ImportButtonProps {
  onImport(document: WorkflowDocumentInput): Promise<unknown>;
  onError(message: string, details: Array<{ path: string; message: string }>): void;
}

/** Reads a workflow JSON file and hands it to the server, which validates it. */
export function ImportButton({ onImport, onError }: ImportButtonProps) {
  const input = useRef<HTMLInputElement>(null);

  async function importFile(file: File) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(await file.text());
    } catch (error) {
      onError(`${file.name} is not valid JSON: ${error instanceof Error ? error.message : "parse error"}`, []);
      return;
    }
    try {
      await onImport(parsed as WorkflowDocumentInput);
    } catch (error) {
      if (error instanceof ApiError) onError(`Could not import ${file.name}: ${error.message}`, error.details);
      else onError(`Could not import ${file.name}.`, []);
    }
  }

  return (
    <>
      <button type="button" className="btn-secondary" onClick={() => input.current?.click()}>
        <Upload size={16} aria-hidden /> Import
      </button>
      <input
        ref={input}
        type="file"
        accept="application/json,.json"
        className="hidden"
        data-testid="import-file"
        onChange={(event) => {
          const file = event.target.files?.[0];
          event.target.value = "";
          if (file) void importFile(file);
        }}
      />
    </>
  );
}
