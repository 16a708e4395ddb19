/** The schemas of GET /api/usage (docs/CONTRACT.md section 9): each answer's is declared once, with its type, in the contract's own files. */

export { usageFiguresWithRunsSchema, usageReportSchema, usageRowSchema } from "../usage";
