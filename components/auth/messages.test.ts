import { describe, expect, it } from "vitest";
import { apiErrorFrom } from "@/contract";
import { messageOf } from "./messages";

describe("auth form messages", () => {
  it("a throttled sign-in says how long to wait, in the server's words", () => {
    // The flat shape of better-auth's routes, as lib/auth/sign-in-limits.ts answers a throttled guess.
    const body = { code: "TOO_MANY_ATTEMPTS", message: "Too many failed sign-ins: try again in 8 seconds." };
    expect(messageOf(apiErrorFrom(429, JSON.stringify(body)), "Could not sign in")).toBe(
      "Too many failed sign-ins: try again in 8 seconds.",
    );
  });

  it("a bare 429 from a proxy gets a plain sentence, and a wrong password never tells which part was wrong", () => {
    expect(messageOf(apiErrorFrom(429, "<html>slow down</html>"), "Could not sign in")).toBe(
      "Too many attempts. Wait a little, then try again.",
    );
    expect(
      messageOf(
        apiErrorFrom(401, JSON.stringify({ code: "INVALID_EMAIL_OR_PASSWORD", message: "Invalid email" })),
        "x",
      ),
    ).toBe("Invalid email or password.");
  });
});
