import { KNOWLEDGE_BASE_DEFAULTS } from "@/contract";
/**
 * The shapes that flow through ingestion: a parsed file is a list of structural blocks; the
 * chunker turns them into chunks that keep their position and the headings above them.
 */

export type FileKind = "txt" | "md" | "html" | "pdf" | "csv" | "json";

/** One structural unit of a parsed file: a heading, or a paragraph-like run of text. */
export interface TextBlock {
  kind: "heading" | "text";
  text: string;
  /** Heading level, 1 (top) to 6. */
  level?: number;
  /** 1-based page number, for PDFs. */
  page?: number;
}

export interface ParsedDocument {
  kind: FileKind;
  blocks: TextBlock[];
  /** Facts about the file found while parsing, e.g. `{ pages: 3 }` or `{ rows: 40 }`. */
  metadata: Record<string, unknown>;
}

export interface ChunkingOptions {
  /** Maximum tokens per chunk. */
  chunkSize: number;
  /** Tokens repeated from the end of one chunk at the start of the next, within a section. */
  chunkOverlap: number;
}

export const DEFAULT_CHUNKING: ChunkingOptions = {
  chunkSize: KNOWLEDGE_BASE_DEFAULTS.chunkSize,
  chunkOverlap: KNOWLEDGE_BASE_DEFAULTS.chunkOverlap,
};

export interface Chunk {
  /** 0-based position in the document. */
  index: number;
  content: string;
  tokenCount: number;
  metadata: ChunkMetadata;
}

export interface ChunkMetadata {
  /** The headings above the chunk's text, outermost first. */
  headings: string[];
  /** Pages the chunk's text came from (PDF only). */
  pages?: number[];
}
