/** The schemas of POST /api/workflows/:id/estimate (docs/CONTRACT.md section 12), gathered for the catalog; each is declared with its type in the contract file it comes from. */

export { blockEstimateSchema, costRangeSchema, workflowEstimateSchema } from "../estimates";
