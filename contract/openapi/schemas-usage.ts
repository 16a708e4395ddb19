/** The schemas of GET /api/usage (docs/CONTRACT.md section 9), gathered for the catalog; each is declared with its type in the contract file it comes from. */

export { usageFiguresWithRunsSchema, usageReportSchema, usageRowSchema } from "../usage";
