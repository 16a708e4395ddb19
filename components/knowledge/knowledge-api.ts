/** Browser-side calls to the knowledge API (CONTRACT.md section 5), with the server's messages. */

export interface KnowledgeBaseSummary {
  id: string;
  name: string;
  embeddingModel: string;
  embeddingDimensions: number | null;
  chunkSize: number;
  chunkOverlap: number;
  documentCount: number;
  chunkCount: number;
}

export type DocumentStatus = "pending" | "processing" | "ready" | "failed";

export interface KnowledgeDocument {
  id: string;
  name: string;
  status: DocumentStatus;
  chunkCount: number;
  error: string | null;
  kind: string;
  sizeBytes: number;
  tokenCount: number;
  attempts: number;
  embedding: { tokens: number; cost: number | null; unpriced: boolean; estimated: boolean };
}

export interface ChunkView {
  chunkIndex: number;
  content: string;
  tokenCount: number;
  metadata: { headings?: string[]; pages?: number[] };
}

export interface SearchHit {
  content: string;
  score: number;
  documentId: string;
  documentName: string;
  chunkIndex: number;
}

export type SearchMode = "hybrid" | "vector" | "keyword";

export class KnowledgeApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

async function errorOf(status: number, text: string): Promise<KnowledgeApiError> {
  try {
    const body = JSON.parse(text) as { error?: { message?: string } };
    return new KnowledgeApiError(status, body.error?.message ?? `HTTP ${status}`);
  } catch {
    return new KnowledgeApiError(status, `HTTP ${status}`);
  }
}

async function call<T>(path: string, init: RequestInit = {}): Promise<T> {
  const response = await fetch(path, { ...init, headers: { "content-type": "application/json", ...(init.headers ?? {}) } });
  const text = await response.text();
  if (!response.ok) throw await errorOf(response.status, text);
  return (text ? JSON.parse(text) : undefined) as T;
}

export const knowledgeApi = {
  listBases: () => call<{ knowledgeBases: KnowledgeBaseSummary[] }>("/api/knowledge-bases").then((body) => body.knowledgeBases),
  createBase: (input: { name: string; embeddingModel?: string; chunkSize?: number; chunkOverlap?: number }) =>
    call<KnowledgeBaseSummary>("/api/knowledge-bases", { method: "POST", body: JSON.stringify(input) }),
  deleteBase: (id: string) => call<void>(`/api/knowledge-bases/${id}`, { method: "DELETE" }),
  listDocuments: (id: string) => call<{ documents: KnowledgeDocument[] }>(`/api/knowledge-bases/${id}/documents`).then((body) => body.documents),
  deleteDocument: (id: string, documentId: string) => call<void>(`/api/knowledge-bases/${id}/documents/${documentId}`, { method: "DELETE" }),
  listChunks: (id: string, documentId: string) =>
    call<{ chunks: ChunkView[] }>(`/api/knowledge-bases/${id}/documents/${documentId}/chunks?limit=100`).then((body) => body.chunks),
  search: (id: string, request: { query: string; topK: number; mode: SearchMode }) =>
    call<{ results: SearchHit[] }>(`/api/knowledge-bases/${id}/search`, { method: "POST", body: JSON.stringify(request) }).then((body) => body.results),
};

/**
 * Uploads files with XMLHttpRequest, whose upload events report progress (fetch has none).
 * `onProgress` gets the fraction sent, 0 to 1.
 */
export function uploadDocuments(id: string, files: File[], onProgress: (fraction: number) => void): Promise<Array<{ id: string; name: string; status: DocumentStatus }>> {
  return new Promise((resolve, reject) => {
    const form = new FormData();
    for (const file of files) form.append("file", file, file.name);
    const request = new XMLHttpRequest();
    request.open("POST", `/api/knowledge-bases/${id}/documents`);
    request.upload.onprogress = (event) => {
      if (event.lengthComputable) onProgress(event.loaded / event.total);
    };
    request.onload = async () => {
      if (request.status === 202) {
        onProgress(1);
        resolve((JSON.parse(request.responseText) as { documents: Array<{ id: string; name: string; status: DocumentStatus }> }).documents);
      } else {
        reject(await errorOf(request.status, request.responseText));
      }
    };
    request.onerror = () => reject(new KnowledgeApiError(0, "The upload failed: the server could not be reached"));
    request.send(form);
  });
}
