import { TrellisError } from "@/core";

/** A condition or while expression that does not parse or cannot be evaluated. */
export class ExpressionError extends TrellisError {
  /** Zero-based character offset in the expression text, when the problem has one. */
  readonly position?: number;

  constructor(message: string, position?: number) {
    super("invalid_expression", position === undefined ? message : `${message} at position ${position + 1}`);
    this.position = position;
  }
}
