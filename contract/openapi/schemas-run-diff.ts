/** The schemas of GET /api/runs/:id/diff/:otherId (docs/CONTRACT.md section 12): each answer's is declared once, with its type, in the contract's own files. */

export { blockRunDiffSchema, runDiffSchema } from "../run-diff";
