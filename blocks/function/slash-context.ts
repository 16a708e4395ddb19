/**
 * Whether a `/` in JavaScript code starts a regular expression or divides. Only a parser knows for
 * every case, so this answers `ambiguous` where a tokenizer cannot be sure, and the caller refuses
 * to place a reference after such a slash (a value placed as code inside what is really a regex,
 * or as regex text inside what is really code, could become code).
 *
 * Sure: after an operator or at the start, a regex; after an operand (a name, a number, a literal,
 * `]`, a call's or a group's `)`), a division; after `)` closing the head of `if`, `while`, `for`
 * or `with`, a regex (`if (x) /re/.test(a)`). Not sure: after `}` (a block ends, so a regex, or an
 * object literal ends, so a division), after `++` or `--`, after an unmatched `)`.
 */

export type SlashMeaning = "regex" | "division" | "ambiguous";

type Token =
  | { kind: "start" | "operator" | "operand" }
  | { kind: "word"; start: number; end: number; dotted: boolean }
  | { kind: "ambiguous"; what: string };

/** Words after which an expression starts (so a `/` begins a regex): `return /x/`, `case /x/`... */
const EXPRESSION_AFTER_WORD = new Set([
  "return",
  "typeof",
  "instanceof",
  "case",
  "do",
  "else",
  "in",
  "of",
  "new",
  "delete",
  "void",
  "throw",
  "yield",
  "await",
]);
/** Statements whose parenthesised head is followed by a statement, which may start with a regex. */
const STATEMENT_HEADS = new Set(["if", "while", "for", "with"]);

const isWordCharacter = (character: string) => /[\w$\u0080-\uffff]/.test(character) && !/\s/.test(character);

/**
 * Follows the significant characters of the code (the caller feeds it only what is code: not
 * strings, comments or regex bodies, and tells it where a literal ended).
 */
export class SlashContext {
  private previous: Token = { kind: "start" };
  private beforePrevious: Token = { kind: "start" };
  /** For each open `(`: whether it opened a statement head. */
  private readonly parens: boolean[] = [];

  constructor(private readonly code: string) {}

  /** What a `/` read now (outside a comment) means. */
  slash(): SlashMeaning {
    const previous = this.previous;
    switch (previous.kind) {
      case "start":
      case "operator":
        return "regex";
      case "operand":
        return "division";
      case "ambiguous":
        return "ambiguous";
      case "word":
        return !previous.dotted && EXPRESSION_AFTER_WORD.has(this.wordOf(previous)) ? "regex" : "division";
    }
  }

  /** Why the last slash was ambiguous, for the refusal's message. */
  ambiguity(): string {
    return this.previous.kind === "ambiguous" ? this.previous.what : "";
  }

  /** A string, template, regex or substituted value ended: an operand. */
  literal(): void {
    this.push({ kind: "operand" });
  }

  /** An expression may start here (after `${` in a template). */
  expressionStart(): void {
    this.push({ kind: "operator" });
  }

  /** One character of code at `index` (whitespace included; the caller skips comments). */
  character(character: string, index: number): void {
    if (/\s/.test(character)) return;
    const previous = this.previous;
    if (isWordCharacter(character)) {
      if (previous.kind === "word" && previous.end === index) previous.end = index + 1;
      else
        this.push({
          kind: "word",
          start: index,
          end: index + 1,
          dotted: previous.kind === "operator" && this.code[this.lastOperatorIndex] === ".",
        });
      return;
    }
    if (character === "(") {
      this.parens.push(this.opensStatementHead());
      this.operator(index);
    } else if (character === ")") {
      const head = this.parens.pop();
      if (head === undefined) this.push({ kind: "ambiguous", what: "an unmatched )" });
      else this.push(head ? { kind: "operator" } : { kind: "operand" });
    } else if (character === "]") this.push({ kind: "operand" });
    else if (character === "}") this.push({ kind: "ambiguous", what: "}" });
    else if (
      (character === "+" || character === "-") &&
      previous.kind === "operator" &&
      this.code[this.lastOperatorIndex] === character &&
      this.lastOperatorIndex === index - 1
    )
      this.push({ kind: "ambiguous", what: character === "+" ? "++" : "--" });
    else this.operator(index);
  }

  private lastOperatorIndex = -1;

  private operator(index: number): void {
    this.lastOperatorIndex = index;
    this.push({ kind: "operator" });
  }

  private push(token: Token): void {
    this.beforePrevious = this.previous;
    this.previous = token;
  }

  private wordOf(token: { start: number; end: number }): string {
    return this.code.slice(token.start, token.end);
  }

  /** `if (`, `while (`, `for (`, `with (` and `for await (`, not as a property (`a.if(`). */
  private opensStatementHead(): boolean {
    const previous = this.previous;
    if (previous.kind !== "word" || previous.dotted) return false;
    const word = this.wordOf(previous);
    if (STATEMENT_HEADS.has(word)) return true;
    const before = this.beforePrevious;
    return word === "await" && before.kind === "word" && !before.dotted && this.wordOf(before) === "for";
  }
}
