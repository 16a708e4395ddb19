/** How errors look on the wire (docs/CONTRACT.md section 5): in API answers, events and spans. */

export interface IssueDetail {
  /** Where in the document or input the problem is, for example `blocks[3].config.model`. */
  path: string;
  message: string;
}

/** An error as events, spans and stored runs carry it. */
export interface ErrorInfo {
  code: string;
  message: string;
}

/** The body of every error answer of the API. */
export interface ErrorBody {
  error: ErrorInfo & { details?: IssueDetail[]; [extra: string]: unknown };
}
