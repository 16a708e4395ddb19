/** The schemas of the deployment endpoints (docs/CONTRACT.md section 9), gathered for the catalog; each is declared with its type in the contract file it comes from. */

export {
  deploymentInfoSchema,
  deploymentPageSchema,
  deploymentWithDocumentSchema,
  documentDiffSchema,
} from "../deployments";
