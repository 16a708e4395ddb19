/** The schemas of the evaluation endpoints (docs/CONTRACT.md section 13), gathered for the catalog; each is declared with its type in the contract file it comes from. */

export { datasetCaseSchema, datasetListSchema, datasetSchema, datasetSummarySchema } from "../datasets";
export {
  comparedCaseSchema,
  evaluationCaseSchema,
  evaluationComparisonSchema,
  evaluationInfoSchema,
  evaluationListSchema,
  evaluationSchema,
  evaluationStartedSchema,
  evaluationSummarySchema,
  suiteListSchema,
  suiteSchema,
} from "../evaluations";
export { scoreSchema, scorerSchema } from "../scorers";
