import { describe, expect, it } from "vitest";
import { WORKSPACE_ROLES, type WorkspaceRole } from "@/contract";
import { API_OPERATIONS, type OperationId } from "@/contract/openapi";
import { bindOperation, endpoint, type OperationDeclaration } from "./endpoint";
import { RequestError } from "./errors";
import { testMember } from "./test-members";

const declared = (changes: Partial<OperationDeclaration> = {}): OperationDeclaration => ({
  operationId: "things",
  method: "GET",
  path: "/api/things",
  access: "member",
  role: "viewer",
  ...changes,
});

describe("endpoint", () => {
  it("answers a thrown error with the contract's error body", async () => {
    const refuse = bindOperation(declared(), async () => {
      throw new RequestError("invalid_request", "The thing is invalid.", [{ path: "name", message: "is required" }]);
    });
    const response = await refuse(new Request("http://localhost/api/things"), {}, testMember("w1"));
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({
      error: {
        code: "invalid_request",
        message: "The thing is invalid.",
        details: [{ path: "name", message: "is required" }],
      },
    });
  });

  it("binds a declared operation by its id, with its path's params", async () => {
    const document = endpoint("getRunDocument", async (_request, { id }, member) =>
      Response.json({ id, workspace: member.workspace.id }),
    );
    expect(document.operation).toMatchObject({
      method: "GET",
      path: "/api/runs/{id}/document",
      access: "member",
      role: "viewer",
    });
    const response = await document(
      new Request("http://localhost/api/runs/r1/document"),
      { id: "r1" },
      testMember("w1", "viewer"),
    );
    expect(await response.json()).toEqual({ id: "r1", workspace: "w1" });
  });
});

const below = (role: WorkspaceRole): WorkspaceRole | undefined => WORKSPACE_ROLES[WORKSPACE_ROLES.indexOf(role) + 1];

/**
 * What the OpenAPI document publishes as an operation's role (`x-trellis-role`, from the same
 * declaration) is what its endpoint enforces: for every member operation, a member one role below
 * is refused before the handler runs, and a member with the role gets through.
 */
describe("roles", () => {
  const memberOperations = API_OPERATIONS.filter((operation) => operation.access === "member");

  it("are declared by every member operation", () => {
    expect(memberOperations.length).toBeGreaterThan(50);
    expect(() => bindOperation(declared({ role: undefined }), async () => Response.json({}))).toThrow(
      "declares the weakest role",
    );
  });

  it.each(memberOperations.map((operation) => [operation.operationId, operation.role!] as const))(
    "%s: enforces the role it publishes, %s",
    async (id, role) => {
      const ran: string[] = [];
      const bound = endpoint(id as OperationId, async (_request: Request, _params: unknown, member: unknown) => {
        ran.push((member as { workspace: { role: string } }).workspace.role);
        return Response.json({ ok: true });
      });
      const request = () => new Request("http://localhost/api/x", { method: "GET" });
      const weaker = below(role);
      if (weaker) {
        const refused = await bound(request(), {} as never, testMember("w1", weaker));
        expect(refused.status).toBe(403);
        expect(await refused.json()).toMatchObject({
          error: { code: "forbidden", message: expect.stringContaining(`it needs ${role}`) },
        });
      }
      expect((await bound(request(), {} as never, testMember("w1", role))).status).toBe(200);
      expect(ran).toEqual([role]);
    },
  );

  it("lets a stronger role through and names the one needed when refusing", async () => {
    const adminOnly = bindOperation(declared({ method: "POST", role: "admin" }), async () => Response.json({}));
    const call = (role: WorkspaceRole) =>
      adminOnly(new Request("http://localhost/api/things", { method: "POST" }), {}, testMember("w1", role));
    const refused = await call("editor");
    expect(refused.status).toBe(403);
    expect(await refused.json()).toMatchObject({
      error: {
        code: "forbidden",
        message: "Your role in this workspace (editor) cannot do this: it needs admin or above.",
      },
    });
    expect((await call("admin")).status).toBe(200);
    expect((await call("owner")).status).toBe(200);
  });

  it("answers 401 to a member operation called without a member, and to a signed-in one called without a caller", async () => {
    const member = bindOperation(declared(), async () => Response.json({}));
    expect((await member(new Request("http://localhost/api/things"), {})).status).toBe(401);
    const mine = bindOperation(declared({ access: "signed-in", role: undefined }), async (_request, _params, caller) =>
      Response.json({ user: caller?.userId }),
    );
    expect((await mine(new Request("http://localhost/api/things"), {})).status).toBe(401);
    expect(await (await mine(new Request("http://localhost/api/things"), {}, testMember("w1"))).json()).toEqual({
      user: "test-user",
    });
  });
});
