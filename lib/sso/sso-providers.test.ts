import { describe, expect, it } from "vitest";
import { environmentSettings } from "./sso-providers";

/** TRELLIS_OIDC_* for headless installs: read as the Settings form's fields, a bad one named. */
describe("environmentSettings", () => {
  const base = {
    TRELLIS_OIDC_ISSUER: "https://sso.acme.example/realms/acme",
    TRELLIS_OIDC_CLIENT_ID: "trellis",
    TRELLIS_OIDC_CLIENT_SECRET: "s3cret",
  };

  it("is null without an issuer, and reads every variable", () => {
    expect(environmentSettings({})).toBeNull();
    expect(
      environmentSettings({
        ...base,
        TRELLIS_OIDC_NAME: "Acme",
        TRELLIS_OIDC_ALLOWED_DOMAINS: "acme.example, Corp.Example",
        TRELLIS_OIDC_DEFAULT_ROLE: "editor",
        TRELLIS_OIDC_GROUPS_CLAIM: "groups",
        TRELLIS_OIDC_GROUP_ROLES: '{"trellis-admins":"admin"}',
        TRELLIS_OIDC_PASSWORD_SIGN_IN: "off",
      }),
    ).toEqual({
      name: "Acme",
      issuer: base.TRELLIS_OIDC_ISSUER,
      clientId: "trellis",
      clientSecret: "s3cret",
      allowedDomains: ["acme.example", "corp.example"],
      defaultRole: "editor",
      groupsClaim: "groups",
      groupRoles: { "trellis-admins": "admin" },
      passwordSignIn: false,
    });
  });

  it.each([
    [{ TRELLIS_OIDC_DEFAULT_ROLE: "owner" }, "TRELLIS_OIDC_DEFAULT_ROLE: must be one of admin, editor, viewer"],
    [{ TRELLIS_OIDC_ISSUER: "not a url" }, "TRELLIS_OIDC_ISSUER: must be the provider's issuer URL"],
    [{ TRELLIS_OIDC_CLIENT_ID: "" }, "TRELLIS_OIDC_CLIENT_ID: must not be empty"],
    [{ TRELLIS_OIDC_ALLOWED_DOMAINS: "acme" }, "TRELLIS_OIDC_ALLOWED_DOMAINS: must be an email domain"],
    [{ TRELLIS_OIDC_GROUP_ROLES: "admins=admin" }, "TRELLIS_OIDC_GROUP_ROLES must be a JSON object"],
    [{ TRELLIS_OIDC_GROUP_ROLES: '{"x":"owner"}' }, "TRELLIS_OIDC_GROUP_ROLES: must be one of admin, editor, viewer"],
    [{ TRELLIS_OIDC_PASSWORD_SIGN_IN: "maybe" }, "TRELLIS_OIDC_PASSWORD_SIGN_IN must be on or off"],
  ])("refuses %j naming the variable", (change, message) => {
    expect(() => environmentSettings({ ...base, ...change })).toThrow(message);
  });
});
