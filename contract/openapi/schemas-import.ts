/** The schemas of POST /api/workflows/import, gathered for the catalog; each is declared with its type in the contract file it comes from. */

export { importReportSchema, importedWorkflowSchema } from "../workflow-import";
