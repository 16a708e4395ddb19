/** The schemas of POST /api/workflows/:id/estimate (docs/CONTRACT.md section 12): each answer's is declared once, with its type, in the contract's own files. */

export { blockEstimateSchema, costRangeSchema, workflowEstimateSchema } from "../estimates";
