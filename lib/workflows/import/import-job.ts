import { errorInfo, isTrellisError } from "@/executor";
import type { ErrorCode, ImportReport, ImportRequest, IssueDetail } from "@/contract";
import type { ParsedWorkflow } from "../parse-document";
import { importWorkflowFile } from "./import-file";

/**
 * One import as an import thread does it (import-thread.mjs loads this module): convert, check
 * against the document limits, validate. Only plain data crosses the thread boundary: errors
 * travel as code, message and details.
 */

export interface ImportJob {
  request: ImportRequest;
  /** The workspace's MCP server names (null: the operator's list cannot be read). */
  mcpServers: string[] | null;
}

export type ImportJobResult = ParsedWorkflow & { report: ImportReport };

export interface ImportJobFailure {
  code: ErrorCode;
  message: string;
  details: IssueDetail[];
}

export function runImportJob(job: ImportJob): ImportJobResult {
  return importWorkflowFile(job.request, job.mcpServers ? new Set(job.mcpServers) : null);
}

export function describeImportFailure(error: unknown): ImportJobFailure {
  return { ...errorInfo(error), details: isTrellisError(error) ? error.details : [] };
}
