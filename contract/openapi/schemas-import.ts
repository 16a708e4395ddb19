/** The schemas of POST /api/workflows/import: each answer's is declared once, with its type, in the contract's own files. */

export { importReportSchema, importedWorkflowSchema } from "../workflow-import";
