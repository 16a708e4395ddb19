import { describe, expect, it } from "vitest";
import { apiErrorFrom } from "./api-client";

describe("apiErrorFrom", () => {
  it("reads the contract's error body, the auth routes' flat body, and anything else by its status", () => {
    const contract = apiErrorFrom(
      400,
      JSON.stringify({ error: { code: "invalid_request", message: "name: is required", details: [{ path: "name", message: "is required" }] } }),
    );
    expect(contract).toMatchObject({ status: 400, code: "invalid_request", message: "name: is required", details: [{ path: "name", message: "is required" }] });
    const auth = apiErrorFrom(403, JSON.stringify({ code: "SIGN_UP_CLOSED", message: "Sign-up is closed." }));
    expect(auth).toMatchObject({ status: 403, code: "SIGN_UP_CLOSED", message: "Sign-up is closed.", details: [] });
    const proxy = apiErrorFrom(502, "<html>Bad gateway</html>");
    expect(proxy).toMatchObject({ status: 502, code: "http_error", message: "The server answered 502." });
  });
});
