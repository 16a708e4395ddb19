/** The schemas of the schedule endpoints (docs/CONTRACT.md section 9): each answer's is declared once, with its type, in the contract's own files. */

export { scheduleFireSchema, schedulePageSchema, schedulePreviewSchema, scheduleSchema } from "../schedules";
