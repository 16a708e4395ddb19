import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";
import { API_OPERATIONS } from "./catalog";

const apiDirectory = path.resolve(__dirname, "..", "..", "app", "api");
const METHODS = new Set(["GET", "POST", "PUT", "PATCH", "DELETE"]);

/** better-auth's catch-all: its routes are its own and the document only names them. */
const isBetterAuth = (file: string) => file.includes(`${path.sep}[...all]${path.sep}`);

function routeFiles(directory: string): string[] {
  return fs.readdirSync(directory, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(directory, entry.name);
    if (entry.isDirectory()) return routeFiles(full);
    return entry.name === "route.ts" ? [full] : [];
  });
}

/** `app/api/runs/[id]/cancel/route.ts` as the document writes it: `/api/runs/{id}/cancel`. */
function openApiPath(file: string): string {
  const segments = path.relative(apiDirectory, path.dirname(file)).split(path.sep);
  // A catch-all (`[...model]`, a model id whose slash stays a path separator) is one parameter in the document.
  return `/api/${segments.map((segment) => segment.replace(/^\[(?:\.\.\.)?(\w+)\]$/, "{$1}")).join("/")}`;
}

/** The HTTP methods a route file exports (`export const GET = ...` or `export async function GET`). */
function exportedMethods(file: string): string[] {
  const source = ts.createSourceFile(file, fs.readFileSync(file, "utf8"), ts.ScriptTarget.Latest, false);
  const exported = (statement: ts.Statement) =>
    ts.canHaveModifiers(statement) && (ts.getModifiers(statement) ?? []).some((modifier) => modifier.kind === ts.SyntaxKind.ExportKeyword);
  return source.statements.filter(exported).flatMap((statement) => {
    if (ts.isVariableStatement(statement)) return statement.declarationList.declarations.map((declaration) => declaration.name.getText(source));
    if (ts.isFunctionDeclaration(statement) && statement.name) return [statement.name.text];
    return [];
  });
}

/** Every `METHOD /path` the app serves under /api, but better-auth's. */
function servedOperations(): string[] {
  return routeFiles(apiDirectory)
    .filter((file) => !isBetterAuth(file))
    .flatMap((file) =>
      exportedMethods(file)
        .filter((name) => METHODS.has(name))
        .map((method) => `${method} ${openApiPath(file)}`),
    )
    .sort();
}

describe("the operation catalog", () => {
  it("has an entry for every method of every route under app/api (but better-auth's), and no entry without one", () => {
    const catalogued = API_OPERATIONS.map((operation) => `${operation.method} ${operation.path}`).sort();
    const served = servedOperations();
    expect(served.length).toBeGreaterThan(40);
    expect({ missing: served.filter((entry) => !catalogued.includes(entry)), extra: catalogued.filter((entry) => !served.includes(entry)) }).toEqual({
      missing: [],
      extra: [],
    });
  });

  it("reads route files as Next.js does: a file with an unknown export or a PATCH is caught", () => {
    const scratch = fs.mkdtempSync(path.join(os.tmpdir(), "catalog-test-"));
    try {
      const file = path.join(scratch, "route.ts");
      fs.writeFileSync(file, 'export const dynamic = "force-dynamic";\nexport const PATCH = handler;\nexport async function DELETE() {}\nconst GET = 1;\n');
      expect(exportedMethods(file).filter((name) => METHODS.has(name))).toEqual(["PATCH", "DELETE"]);
    } finally {
      fs.rmSync(scratch, { recursive: true, force: true });
    }
  });

  it("names each operation once, with a summary, and marks member operations with the weakest role", () => {
    const ids = API_OPERATIONS.map((operation) => operation.operationId);
    expect(new Set(ids).size).toBe(ids.length);
    for (const operation of API_OPERATIONS) {
      expect(operation.summary.length, operation.operationId).toBeGreaterThan(5);
      expect(operation.role !== undefined, operation.operationId).toBe(operation.access === "member");
    }
  });
});
