/** The syntax tree of an expression. Every node keeps its source position for error messages. */
export type ExpressionNode =
  | { type: "literal"; value: unknown; position: number }
  | { type: "identifier"; name: string; position: number }
  | { type: "array"; items: ExpressionNode[]; position: number }
  | { type: "object"; entries: Array<{ key: string; value: ExpressionNode }>; position: number }
  | { type: "member"; object: ExpressionNode; property: ExpressionNode; position: number }
  | { type: "call"; name: string; args: ExpressionNode[]; position: number }
  | { type: "unary"; operator: "!" | "-" | "+"; operand: ExpressionNode; position: number }
  | { type: "binary"; operator: string; left: ExpressionNode; right: ExpressionNode; position: number }
  | { type: "logical"; operator: "&&" | "||"; left: ExpressionNode; right: ExpressionNode; position: number }
  | {
      type: "conditional";
      test: ExpressionNode;
      consequent: ExpressionNode;
      alternate: ExpressionNode;
      position: number;
    };
