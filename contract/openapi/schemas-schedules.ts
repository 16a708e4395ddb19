/** The schemas of the schedule endpoints (docs/CONTRACT.md section 9), gathered for the catalog; each is declared with its type in the contract file it comes from. */

export { scheduleFireSchema, schedulePageSchema, schedulePreviewSchema, scheduleSchema } from "../schedules";
