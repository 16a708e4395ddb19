import { WEBHOOK_SIGNATURE_HEADER } from "@/contract";
import { exampleInput, shellQuote } from "@/components/ui/shell-example";

/** A start input as the example needs it. */
export interface ExampleInput {
  name: string;
  type?: string;
}

/** A body giving each declared start input a value of its type (text for strings), or one field when none is declared. */
export function exampleBody(inputs: readonly ExampleInput[]): string {
  const fields = inputs.length > 0 ? inputs : [{ name: "message", type: "string" }];
  return JSON.stringify(exampleInput(fields));
}

/**
 * The shell commands that call a hook with curl. With a secret, the body is kept in a variable so
 * that the signature (`openssl dgst -hmac`, hex) is computed over exactly the bytes curl sends;
 * `printf '%s'` adds no newline, and `--data-raw` sends the text as it is.
 */
export function curlExample(options: { url: string; body: string; signed: boolean }): string {
  const lines = [`BODY=${shellQuote(options.body)}`];
  if (options.signed) {
    lines.push(
      `SIGNATURE="sha256=$(printf '%s' "$BODY" | openssl dgst -sha256 -hmac "$WEBHOOK_SECRET" | awk '{print $NF}')"`,
    );
  }
  const request = [
    `curl -X POST ${shellQuote(options.url)}`,
    `  -H 'content-type: application/json'`,
    ...(options.signed ? [`  -H "${WEBHOOK_SIGNATURE_HEADER}: $SIGNATURE"`] : []),
    `  -H 'idempotency-key: my-event-1'`,
    `  --data-raw "$BODY"`,
  ];
  return [...lines, request.join(" \\\n")].join("\n");
}
