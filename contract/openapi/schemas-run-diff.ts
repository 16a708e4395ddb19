/** The schemas of GET /api/runs/:id/diff/:otherId (docs/CONTRACT.md section 12), gathered for the catalog; each is declared with its type in the contract file it comes from. */

export { blockRunDiffSchema, runDiffSchema } from "../run-diff";
