import {
  IMPORT_FORMAT_LABELS,
  IMPORT_FORMATS,
  type ImportReport,
  type ImportRequest,
  type WorkflowDocumentInput,
} from "@/contract";
import { TrellisError } from "@/executor";
import { RequestError } from "@/lib/http/errors";
import { parseWorkflowDocument, type ParsedWorkflow } from "../parse-document";
import { convertAnythingLlmFlow } from "./anythingllm-flow";
import { detectFormat, unknownFormatMessage } from "./detect-format";
import { ConversionError, type ConvertedFile } from "./document-builder";
import { refuseOversizedDocument, refuseOversizedFile } from "./import-limits";
import { convertMcpBridgeWorkflow } from "./mcp-bridge-workflow";
import { chooseMcpServer, type ImportOptions } from "./options";
import { convertSimExport } from "./sim-export";

/**
 * A file of any known format as a Trellis workflow document and the report of what mapped. An
 * unknown shape is 400 `unknown_format` listing the known ones; a known format that cannot be
 * converted is 400 `invalid_workflow` with the path into the file.
 */
export function convertFile(file: unknown, options: ImportOptions): ConvertedFile {
  const format = detectFormat(file);
  if (!format) {
    throw new RequestError(
      "unknown_format",
      unknownFormatMessage(file),
      IMPORT_FORMATS.map((known) => ({ path: "file", message: `known format: ${IMPORT_FORMAT_LABELS[known]}` })),
    );
  }
  const record = file as Record<string, unknown>;
  try {
    if (format === "trellis")
      return {
        document: record as WorkflowDocumentInput,
        report: { format, mapped: ["the Trellis document, as it is"], notMapped: [] },
      };
    if (format === "anythingllm-flow") return convertAnythingLlmFlow(record, options);
    if (format === "mcp-bridge-workflow") return convertMcpBridgeWorkflow(record, options);
    return convertSimExport(record, options);
  } catch (error) {
    if (!(error instanceof ConversionError)) throw error;
    const path = error.path ? `file.${error.path}` : "file";
    throw new RequestError(
      "invalid_workflow",
      `The ${IMPORT_FORMAT_LABELS[format].split(" (")[0]} cannot be imported: ${error.message}`,
      [{ path, message: error.message }],
    );
  }
}

/**
 * Converts, names and validates as POST /api/workflows would; nothing is stored here. A file
 * past the document limits is refused (413) before converting when its block count shows it, and
 * its conversion before validating when the converted document is past them.
 */
export function importWorkflowFile(
  request: ImportRequest,
  mcpServers: Set<string> | null,
): ParsedWorkflow & { report: ImportReport } {
  refuseOversizedFile(request.file);
  const { document, report } = convertFile(request.file, {
    model: request.model,
    mcpServer: chooseMcpServer(request.mcpServer, mcpServers),
  });
  refuseOversizedDocument(document);
  const named = request.name ? { ...document, name: request.name } : document;
  try {
    return { ...parseWorkflowDocument(named), report };
  } catch (error) {
    if (report.format === "trellis" || !(error instanceof TrellisError) || error.code !== "invalid_workflow")
      throw error;
    // The converter made a document Trellis refuses: say so, with the document's own paths.
    throw new RequestError(
      "invalid_workflow",
      `The imported ${report.format} converted to a workflow Trellis refuses: ${error.message}`,
      error.details,
    );
  }
}
