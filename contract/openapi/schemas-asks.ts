/** The schemas of the ask endpoints (docs/CONTRACT.md section 10): each answer's is declared once, with its type, in the contract's own files. */

export { askAnsweredSchema, chatAskAnsweredSchema, pendingAskSchema, runAsksSchema } from "../asks";
