import { TrellisError } from "@/core";

/** A file the knowledge base will not take: unknown extension, or content that does not match it. */
export class UnsupportedFileError extends TrellisError {
  constructor(message: string) {
    super("unsupported_file_type", message);
  }
}

/** A file that was accepted but could not be read (a broken PDF, invalid JSON). */
export class DocumentParseError extends TrellisError {
  constructor(message: string, options: { cause?: unknown } = {}) {
    super("document_unreadable", message, options);
  }
}

/** An embedding model id that cannot be used (unknown provider, missing key). */
export class EmbedderConfigError extends TrellisError {
  constructor(message: string) {
    super("invalid_embedding_model", message);
  }
}
