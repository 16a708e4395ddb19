import fs from "node:fs";
import path from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";

const root = path.resolve(__dirname, "..");
const skipped = new Set(["node_modules", ".next", ".data", "lib", "test-results", "playwright-report"]);

function sourceFiles(directory: string): string[] {
  return fs.readdirSync(directory, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(directory, entry.name);
    if (entry.isDirectory()) {
      if (entry.name.startsWith(".") || (directory === root && skipped.has(entry.name) && entry.name !== "lib")) return [];
      if (full === path.join(root, "lib", "generated")) return [];
      return sourceFiles(full);
    }
    return /\.(ts|tsx)$/.test(entry.name) && !entry.name.endsWith(".d.ts") ? [full] : [];
  });
}

const isExported = (statement: ts.Statement) =>
  ts.canHaveModifiers(statement) && (ts.getModifiers(statement) ?? []).some((modifier) => modifier.kind === ts.SyntaxKind.ExportKeyword);

/** Names a file declares at its top level (only the exported ones when asked): types, interfaces, classes, functions, constants. */
function declaredNames(file: string, onlyExported = false): string[] {
  const source = ts.createSourceFile(file, fs.readFileSync(file, "utf8"), ts.ScriptTarget.Latest, false);
  const names: string[] = [];
  for (const statement of source.statements) {
    if (onlyExported && !isExported(statement)) continue;
    if (
      ts.isInterfaceDeclaration(statement) ||
      ts.isTypeAliasDeclaration(statement) ||
      ts.isClassDeclaration(statement) ||
      ts.isFunctionDeclaration(statement) ||
      ts.isEnumDeclaration(statement)
    ) {
      if (statement.name) names.push(statement.name.text);
    } else if (ts.isVariableStatement(statement)) {
      for (const declaration of statement.declarationList.declarations) if (ts.isIdentifier(declaration.name)) names.push(declaration.name.text);
    }
  }
  return names;
}

describe("the contract", () => {
  it("is the only place that declares its types, schemas and helpers", () => {
    const contractDirectory = path.join(root, "contract");
    const contractFiles = sourceFiles(contractDirectory).filter((file) => !file.endsWith(".test.ts"));
    const contractNames = new Map(contractFiles.flatMap((file) => declaredNames(file, true).map((name) => [name, path.relative(root, file)] as const)));
    // Each contract name is declared once inside contract/ too.
    expect(contractNames.size).toBe(contractFiles.flatMap((file) => declaredNames(file, true)).length);

    const elsewhere = sourceFiles(root)
      .filter((file) => !file.startsWith(contractDirectory + path.sep) && !file.endsWith(".test.ts") && !file.endsWith(".test.tsx"))
      .flatMap((file) =>
        declaredNames(file)
          .filter((name) => contractNames.has(name))
          .map((name) => `${name} in ${path.relative(root, file)} (the contract's is in ${contractNames.get(name)})`),
      );
    expect(elsewhere).toEqual([]);
  });
});
