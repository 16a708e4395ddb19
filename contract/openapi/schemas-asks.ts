/** The schemas of the ask endpoints (docs/CONTRACT.md section 10), gathered for the catalog; each is declared with its type in the contract file it comes from. */

export { askAnsweredSchema, chatAskAnsweredSchema, pendingAskSchema, runAsksSchema } from "../asks";
