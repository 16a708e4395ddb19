import { execFileSync } from "node:child_process";
import { createHmac } from "node:crypto";
import { describe, expect, it } from "vitest";
import { curlExample, exampleBody } from "./curl-example";

/** Runs the example in bash with `curl` standing in as a function that prints what it would send. */
function runExample(script: string, secret: string): { args: string[] } {
  const fakeCurl = `curl() { for argument in "$@"; do printf '%s\\0' "$argument"; done; }`;
  const output = execFileSync("bash", ["-c", `${fakeCurl}\n${script}`], {
    env: { ...process.env, WEBHOOK_SECRET: secret },
  });
  return { args: output.toString("utf8").split("\0").slice(0, -1) };
}

describe("the hook's curl example", () => {
  it("gives each declared start input a value of its type", () => {
    expect(
      exampleBody([
        { name: "name", type: "string" },
        { name: "count", type: "number" },
        { name: "flag", type: "boolean" },
      ]),
    ).toBe('{"name":"some name","count":1,"flag":true}');
    expect(exampleBody([])).toBe('{"message":"some message"}');
  });

  it("sends the body as written, and signs exactly those bytes with openssl as the server does", () => {
    const body = JSON.stringify({ text: 'it\'s ünïcode, $HOME and "quotes"' });
    const secret = "s3cret with spaces";
    const { args } = runExample(
      curlExample({ url: "http://127.0.0.1:3000/api/hooks/abc", body, signed: true }),
      secret,
    );
    const expected = `sha256=${createHmac("sha256", secret).update(body, "utf8").digest("hex")}`;
    expect(args).toEqual([
      "-X",
      "POST",
      "http://127.0.0.1:3000/api/hooks/abc",
      "-H",
      "content-type: application/json",
      "-H",
      `x-trellis-signature: ${expected}`,
      "-H",
      "idempotency-key: my-event-1",
      "--data-raw",
      body,
    ]);
  });

  it("leaves the signature out for a hook without a secret", () => {
    const script = curlExample({ url: "http://localhost/api/hooks/abc", body: "{}", signed: false });
    expect(script).not.toContain("openssl");
    expect(runExample(script, "").args).not.toContain("x-trellis-signature");
  });
});
