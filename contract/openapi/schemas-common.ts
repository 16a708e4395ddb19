/** Pieces every answer schema uses, declared with their types in the contract's files and gathered here for the catalog. */

export { timestampSchema } from "../timestamp";
export { errorBodySchema, errorInfoSchema, issueDetailSchema } from "../errors";
export { costSchema, tokenCountsSchema, usageFiguresShape } from "../usage";
export { pageSchema } from "../pagination";
