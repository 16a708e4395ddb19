"use client";

import { Upload } from "lucide-react";
import { useRef } from "react";
import { ApiError } from "@/contract";

interface ImportButtonProps {
  /** Sends the parsed file to the server, which detects its format, converts and validates it. */
  onImport(file: unknown, fileName: string): Promise<unknown>;
  onError(message: string, details: Array<{ path: string; message: string }>): void;
  busy?: boolean;
}

/** Reads a flow file (a Trellis export, an AnythingLLM flow, an MCP-bridge workflow or a Sim export) and hands it to the import endpoint. */
export function ImportButton({ onImport, onError, busy }: ImportButtonProps) {
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
      await onImport(parsed, file.name);
    } catch (error) {
      if (error instanceof ApiError) onError(`Could not import ${file.name}: ${error.message}`, error.details);
      else onError(`Could not import ${file.name}.`, []);
    }
  }

  return (
    <>
      <button
        type="button"
        className="btn-secondary"
        onClick={() => input.current?.click()}
        disabled={busy}
        title="Import a Trellis export, an AnythingLLM agent flow, an MCP-bridge workflow or a Sim workflow export"
      >
        <Upload size={16} aria-hidden /> {busy ? "Importing…" : "Import"}
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
