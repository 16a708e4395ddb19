/** The schemas of the deployment endpoints (docs/CONTRACT.md section 9): each answer's is declared once, with its type, in the contract's own files. */

export { deploymentInfoSchema, deploymentPageSchema, deploymentWithDocumentSchema, documentDiffSchema } from "../deployments";
