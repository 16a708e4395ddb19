import type { WorkflowDocumentInput } from "@/executor/document";

/** Browser-side calls to the workflow API, throwing an ApiError with the server's message. */

export interface WorkflowSummary {
  id: string;
  name: string;
  description: string;
  version: number;
  updatedAt: string;
}

export interface StoredWorkflow extends Required<Pick<WorkflowDocumentInput, "name" | "blocks" | "edges">> {
  id: string;
  version: number;
  description: string;
  variables: Record<string, unknown>;
  createdAt: string;
  updatedAt: string;
}

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly details: Array<{ path: string; message: string }> = [],
    readonly body: unknown = undefined,
  ) {
    super(message);
  }
}

export async function apiFetch<T>(path: string, init: RequestInit = {}): Promise<T> {
  const response = await fetch(path, {
    ...init,
    headers: { "content-type": "application/json", ...(init.headers ?? {}) },
  });
  if (response.status === 204) return undefined as T;
  const body = (await response.json().catch(() => null)) as { error?: { code?: string; message?: string; details?: [] } } | null;
  if (!response.ok) {
    const error = body?.error;
    throw new ApiError(response.status, error?.code ?? "http_error", error?.message ?? `The server answered ${response.status}.`, error?.details ?? [], body);
  }
  return body as T;
}

export const workflowsApi = {
  list: () => apiFetch<{ workflows: WorkflowSummary[] }>("/api/workflows").then((body) => body.workflows),
  get: (id: string) => apiFetch<StoredWorkflow>(`/api/workflows/${encodeURIComponent(id)}`),
  create: (document: WorkflowDocumentInput) => apiFetch<StoredWorkflow>("/api/workflows", { method: "POST", body: JSON.stringify(document) }),
  update: (id: string, document: WorkflowDocumentInput & { version: number }) =>
    apiFetch<StoredWorkflow>(`/api/workflows/${encodeURIComponent(id)}`, { method: "PUT", body: JSON.stringify(document) }),
  remove: (id: string) => apiFetch<void>(`/api/workflows/${encodeURIComponent(id)}`, { method: "DELETE" }),
};

/** The document part of a stored workflow: what export writes and import reads. */
export function toDocument(workflow: StoredWorkflow): WorkflowDocumentInput {
  return {
    name: workflow.name,
    description: workflow.description,
    variables: workflow.variables,
    blocks: workflow.blocks,
    edges: workflow.edges,
  };
}

/** A new workflow starts with a Start block so it can run at once. */
export function newWorkflowDocument(name: string): WorkflowDocumentInput {
  return {
    name,
    blocks: [{ id: "start", type: "start", name: "Start", position: { x: 80, y: 160 }, config: { inputs: [{ name: "message", type: "string" }] } }],
    edges: [],
  };
}
