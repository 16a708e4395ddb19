import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";

/**
 * `import-x/no-cycle` (eslint.config.mjs) skips `import type`, by design, and 7 of the 8 circles
 * issue 31 removed closed through one. This walks every import, types included, and fails on a
 * circle other than the engine's one natural recursion (a container's body runs scopes, a scope
 * runs containers), exempted where it is written.
 */
const root = path.resolve(import.meta.dirname, "..");
const skipped = new Set(["node_modules", ".next", ".git", ".data", "generated", ".bench", "test-results"]);
const EXEMPT = new Set(["executor/runtime/container-run.ts -> executor/runtime/scope-run.ts"]);

function sourceFiles(directory: string): string[] {
  return readdirSync(directory).flatMap((name) => {
    if (skipped.has(name)) return [];
    const full = path.join(directory, name);
    if (statSync(full).isDirectory()) return sourceFiles(full);
    return /\.tsx?$/.test(name) && !name.endsWith(".d.ts") ? [full] : [];
  });
}

function resolveImport(from: string, specifier: string): string | undefined {
  let base: string;
  if (specifier.startsWith("@/")) base = path.join(root, specifier.slice(2));
  else if (specifier.startsWith(".")) base = path.resolve(path.dirname(from), specifier);
  else return undefined;
  const candidates = [base, `${base}.ts`, `${base}.tsx`, path.join(base, "index.ts"), path.join(base, "index.tsx")];
  return candidates.find((candidate) => existsSync(candidate) && statSync(candidate).isFile());
}

/** The circles of the import graph: its strongly connected components of more than one file (Tarjan). */
function circles(graph: Map<string, string[]>): string[][] {
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const visit = (file: string) => {
    index.set(file, next);
    low.set(file, next);
    next += 1;
    stack.push(file);
    onStack.add(file);
    for (const imported of graph.get(file) ?? []) {
      if (!index.has(imported)) {
        visit(imported);
        low.set(file, Math.min(low.get(file)!, low.get(imported)!));
      } else if (onStack.has(imported)) low.set(file, Math.min(low.get(file)!, index.get(imported)!));
    }
    if (low.get(file) === index.get(file)) {
      const component: string[] = [];
      let member: string;
      do {
        member = stack.pop()!;
        onStack.delete(member);
        component.push(member);
      } while (member !== file);
      if (component.length > 1) found.push(component.sort());
    }
  };
  for (const file of graph.keys()) if (!index.has(file)) visit(file);
  return found;
}

function importGraph(files: string[]): Map<string, string[]> {
  return new Map(
    files.map((file) => {
      const imports = ts.preProcessFile(readFileSync(file, "utf8"), true, true).importedFiles;
      const targets = imports.flatMap(({ fileName }) => resolveImport(file, fileName) ?? []);
      return [path.relative(root, file), targets.map((target) => path.relative(root, target))];
    }),
  );
}

describe("import circles, type-only imports included", () => {
  it("finds a circle closed through `import type`", () => {
    const graph = new Map([
      ["a.ts", ["b.ts"]],
      ["b.ts", ["a.ts"]],
      ["c.ts", ["a.ts"]],
    ]);
    expect(circles(graph)).toEqual([["a.ts", "b.ts"]]);
  });

  it("has none but the engine's container/scope recursion", () => {
    const found = circles(importGraph(sourceFiles(root))).map((circle) => circle.join(" -> "));
    expect(found.filter((circle) => !EXEMPT.has(circle))).toEqual([]);
  });
});
