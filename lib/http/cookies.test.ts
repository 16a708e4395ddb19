import { describe, expect, it } from "vitest";
import { readCookie } from "./cookies";

const withCookie = (cookie: string) => new Request("http://localhost/", { headers: { cookie } });

describe("readCookie", () => {
  it("finds a cookie by its exact name, decoded, keeping '=' inside the value", () => {
    const request = withCookie("trellis-workspace-x=no; trellis-workspace=ws%201; sig=a=b=");
    expect(readCookie(request, "trellis-workspace")).toBe("ws 1");
    expect(readCookie(request, "sig")).toBe("a=b=");
    expect(readCookie(request, "absent")).toBeUndefined();
  });

  it("answers nothing for a value that does not decode, rather than throwing", () => {
    expect(readCookie(withCookie("visitor=%E0%A4%A"), "visitor")).toBeUndefined();
    expect(readCookie(new Request("http://localhost/"), "visitor")).toBeUndefined();
  });
});
