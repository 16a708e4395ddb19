import fs from "node:fs";
import path from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";
import { z } from "zod";

const root = path.resolve(__dirname, "..");
const skipped = new Set(["node_modules", ".next", ".data", "lib", "test-results", "playwright-report"]);

function sourceFiles(directory: string): string[] {
  return fs.readdirSync(directory, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(directory, entry.name);
    if (entry.isDirectory()) {
      if (entry.name.startsWith(".") || (directory === root && skipped.has(entry.name) && entry.name !== "lib"))
        return [];
      if (full === path.join(root, "lib", "generated")) return [];
      return sourceFiles(full);
    }
    return /\.(ts|tsx)$/.test(entry.name) && !entry.name.endsWith(".d.ts") ? [full] : [];
  });
}

const isExported = (statement: ts.Statement) =>
  ts.canHaveModifiers(statement) &&
  (ts.getModifiers(statement) ?? []).some((modifier) => modifier.kind === ts.SyntaxKind.ExportKeyword);

const parsed = new Map<string, ts.SourceFile>();
function parse(file: string): ts.SourceFile {
  let source = parsed.get(file);
  if (!source)
    parsed.set(
      file,
      (source = ts.createSourceFile(file, fs.readFileSync(file, "utf8"), ts.ScriptTarget.Latest, false)),
    );
  return source;
}

/** Names a file declares at its top level (only the exported ones when asked): types, interfaces, classes, functions, constants. */
function declaredNames(file: string, onlyExported = false): string[] {
  const source = parse(file);
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
      for (const declaration of statement.declarationList.declarations)
        if (ts.isIdentifier(declaration.name)) names.push(declaration.name.text);
    }
  }
  return names;
}

describe("the contract", () => {
  it("is the only place that declares its types, schemas and helpers", () => {
    const contractDirectory = path.join(root, "contract");
    const contractFiles = sourceFiles(contractDirectory).filter((file) => !file.endsWith(".test.ts"));
    const contractNames = new Map(
      contractFiles.flatMap((file) =>
        declaredNames(file, true).map((name) => [name, path.relative(root, file)] as const),
      ),
    );
    // Each contract name is declared once inside contract/ too.
    expect(contractNames.size).toBe(contractFiles.flatMap((file) => declaredNames(file, true)).length);

    const elsewhere = sourceFiles(root)
      .filter(
        (file) =>
          !file.startsWith(contractDirectory + path.sep) && !file.endsWith(".test.ts") && !file.endsWith(".test.tsx"),
      )
      .flatMap((file) =>
        declaredNames(file)
          .filter((name) => contractNames.has(name))
          .map((name) => `${name} in ${path.relative(root, file)} (the contract's is in ${contractNames.get(name)})`),
      );
    expect(elsewhere).toEqual([]);
  });
});

/*
 * Schema-first: every object on the wire is a zod schema in contract/ and its type is inferred
 * from it (`z.infer`). An interface or type literal written out by hand with the same fields is a
 * second declaration that can drift from the schema, so finding one fails the test, wherever it is.
 */

/**
 * A field by name, whether it is optional (`unknown` fields count as either, since zod may make
 * them optional), and its kind where it is a plain one, so that `{ low: number }` and
 * `{ low: { prompt: number } }` are not taken for each other.
 */
interface Field {
  name: string;
  optional: boolean | "either";
  kind?: FieldKind;
}

type FieldKind = "string" | "number" | "boolean" | "array" | "object";
const FIELD_KINDS: ReadonlySet<string> = new Set<FieldKind>(["string", "number", "boolean", "array", "object"]);

function schemaKind(schema: z.ZodType): FieldKind | undefined {
  const definition = schema._zod.def;
  if (definition.type === "optional" || definition.type === "nullable" || definition.type === "default")
    return schemaKind((definition as unknown as { innerType: z.ZodType }).innerType);
  return FIELD_KINDS.has(definition.type) ? (definition.type as FieldKind) : undefined;
}

function typeNodeKind(type: ts.TypeNode | undefined): FieldKind | undefined {
  if (!type) return undefined;
  if (type.kind === ts.SyntaxKind.StringKeyword) return "string";
  if (type.kind === ts.SyntaxKind.NumberKeyword) return "number";
  if (type.kind === ts.SyntaxKind.BooleanKeyword) return "boolean";
  if (ts.isArrayTypeNode(type)) return "array";
  if (ts.isTypeLiteralNode(type)) return "object";
  return undefined;
}

/** An object schema of the contract (nested ones included), or an object type written out by hand. */
interface ObjectType {
  where: string;
  fields: Field[];
}

function fieldOf(name: string, schema: z.ZodType): Field {
  if (schema instanceof z.ZodUnknown || schema instanceof z.ZodAny) return { name, optional: "either" };
  return { name, optional: schema._zod.optout === "optional", kind: schemaKind(schema) };
}

function objectSchemasIn(schema: z.ZodType, where: string, found: ObjectType[], seen: Set<z.ZodType>): void {
  if (seen.has(schema)) return;
  seen.add(schema);
  if (schema instanceof z.ZodObject) {
    const shape = schema.shape as Record<string, z.ZodType>;
    found.push({ where, fields: Object.entries(shape).map(([name, field]) => fieldOf(name, field)) });
    for (const [name, field] of Object.entries(shape)) objectSchemasIn(field, `${where}.${name}`, found, seen);
    return;
  }
  // Arrays, unions, optionals, records, pipes: whatever the definition holds.
  for (const part of Object.values(schema._zod.def as object) as unknown[])
    for (const inner of Array.isArray(part) ? part : [part])
      if (inner instanceof z.ZodType) objectSchemasIn(inner, where, found, seen);
}

/** Every object schema the contract's files declare and export, as `file: name.path`. */
async function contractObjectSchemas(): Promise<ObjectType[]> {
  const exported: Array<{ where: string; value: unknown }> = [];
  for (const file of sourceFiles(path.join(root, "contract")).filter((each) => !each.endsWith(".test.ts"))) {
    const exports = (await import(file)) as Record<string, unknown>;
    for (const name of declaredNames(file, true))
      exported.push({ where: `${path.relative(root, file)}: ${name}`, value: exports[name] });
  }
  const found: ObjectType[] = [];
  const seen = new Set<z.ZodType>();
  // Schemas first, so that each is named where it is declared rather than in a table that lists it.
  for (const { where, value } of exported) if (value instanceof z.ZodType) objectSchemasIn(value, where, found, seen);
  // Then a shape spread into several schemas (`usageFiguresShape`).
  for (const { where, value } of exported) {
    const fields = value && typeof value === "object" && !(value instanceof z.ZodType) ? Object.values(value) : [];
    if (fields.length > 0 && fields.every((field) => field instanceof z.ZodType))
      objectSchemasIn(z.object(value as z.ZodRawShape), where, found, seen);
  }
  return found;
}

function propertyName(name: ts.PropertyName): string | undefined {
  return ts.isIdentifier(name) || ts.isStringLiteral(name) ? name.text : undefined;
}

function literalFields(members: ts.NodeArray<ts.TypeElement>): Field[] {
  return members.flatMap((member) => {
    const name = member.name && propertyName(member.name);
    if (!name || !(ts.isPropertySignature(member) || ts.isMethodSignature(member))) return [];
    return [
      {
        name,
        optional: Boolean(member.questionToken),
        kind: ts.isPropertySignature(member) ? typeNodeKind(member.type) : undefined,
      },
    ];
  });
}

type Declaration = ts.InterfaceDeclaration | ts.TypeAliasDeclaration;

/** Interfaces and type aliases by name, to follow `extends` and intersections to what they add. */
function declarationsByName(
  files: readonly ts.SourceFile[],
): Map<string, Array<{ file: ts.SourceFile; declaration: Declaration }>> {
  const byName = new Map<string, Array<{ file: ts.SourceFile; declaration: Declaration }>>();
  const visit = (file: ts.SourceFile, node: ts.Node): void => {
    if (ts.isInterfaceDeclaration(node) || ts.isTypeAliasDeclaration(node))
      byName.set(node.name.text, [...(byName.get(node.name.text) ?? []), { file, declaration: node }]);
    ts.forEachChild(node, (child) => visit(file, child));
  };
  for (const file of files) visit(file, file);
  return byName;
}

/**
 * The object types files write out by hand (interfaces, and type aliases of literals, each member of
 * a union on its own), with the fields they inherit from what they extend or intersect.
 */
function handWrittenTypes(files: readonly ts.SourceFile[]): ObjectType[] {
  const byName = declarationsByName(files);
  // A name declared in the same file wins; elsewhere only a name declared once resolves.
  const resolve = (file: ts.SourceFile, name: string): Declaration | undefined => {
    const candidates = byName.get(name) ?? [];
    return (
      candidates.find((candidate) => candidate.file === file) ?? (candidates.length === 1 ? candidates[0] : undefined)
    )?.declaration;
  };
  // undefined: the type is made some other way (z.infer, Pick, a generic), so it is not hand-written here.
  const fieldsOfType = (file: ts.SourceFile, type: ts.TypeNode, depth: number): Field[] | undefined => {
    if (depth > 10) return undefined;
    if (ts.isTypeLiteralNode(type)) return literalFields(type.members);
    if (ts.isParenthesizedTypeNode(type)) return fieldsOfType(file, type.type, depth);
    if (ts.isIntersectionTypeNode(type)) {
      const parts = type.types.map((part) => fieldsOfType(file, part, depth + 1));
      return parts.every((part) => part !== undefined) ? parts.flat() : undefined;
    }
    if (ts.isTypeReferenceNode(type) && ts.isIdentifier(type.typeName) && !type.typeArguments) {
      const declaration = resolve(file, type.typeName.text);
      return declaration && fieldsOfDeclaration(file, declaration, depth + 1);
    }
    return undefined;
  };
  const fieldsOfDeclaration = (file: ts.SourceFile, declaration: Declaration, depth: number): Field[] | undefined => {
    if (ts.isTypeAliasDeclaration(declaration)) return fieldsOfType(file, declaration.type, depth);
    const inherited = (declaration.heritageClauses ?? []).flatMap((clause) =>
      clause.types.map((heritage) => {
        if (!ts.isIdentifier(heritage.expression) || heritage.typeArguments) return undefined;
        const parent = resolve(file, heritage.expression.text);
        return parent && fieldsOfDeclaration(file, parent, depth + 1);
      }),
    );
    return inherited.every((fields) => fields !== undefined)
      ? [...inherited.flat(), ...literalFields(declaration.members)]
      : undefined;
  };

  const found: ObjectType[] = [];
  for (const [name, declarations] of byName)
    for (const { file, declaration } of declarations) {
      const where = `${name} in ${path.relative(root, file.fileName)}`;
      const variants =
        ts.isTypeAliasDeclaration(declaration) && ts.isUnionTypeNode(declaration.type)
          ? declaration.type.types
          : [undefined];
      for (const variant of variants) {
        const fields = variant ? fieldsOfType(file, variant, 0) : fieldsOfDeclaration(file, declaration, 0);
        if (fields) found.push({ where, fields });
      }
    }
  return found;
}

/**
 * Hand-written types whose fields are exactly an object schema's (same names, same optionality, no
 * plain kind differing): twins. Two fields are enough inside contract/, where every wire object
 * comes from a schema; outside it, a pair such as `{ id, name }` recurs by chance, so three are
 * needed there.
 */
function twins(types: readonly ObjectType[], schemas: readonly ObjectType[]): string[] {
  const key = (fields: readonly Field[]) => [...new Set(fields.map((field) => field.name))].sort().join(",");
  const schemasByKey = new Map<string, ObjectType[]>();
  for (const schema of schemas)
    schemasByKey.set(key(schema.fields), [...(schemasByKey.get(key(schema.fields)) ?? []), schema]);
  return types.flatMap((type) => {
    // A discriminant (`type: "run.started"`) is what an event adds to the schema of its payload.
    const fields = type.fields.filter((field) => field.name !== "type");
    const least = type.where.includes(` in contract${path.sep}`) ? 2 : 3;
    if (new Set(fields.map((field) => field.name)).size < least) return [];
    const matching = (schemasByKey.get(key(fields)) ?? []).filter((schema) =>
      fields.every((field) => {
        const twin = schema.fields.find((each) => each.name === field.name)!;
        const sameKind = twin.kind === undefined || field.kind === undefined || twin.kind === field.kind;
        return sameKind && (twin.optional === "either" || twin.optional === field.optional);
      }),
    );
    return matching.map(
      (schema) => `${type.where} repeats the schema ${schema.where}: declare it as z.infer of that schema`,
    );
  });
}

describe("the contract's answer types", () => {
  it("are inferred from their schemas: no interface or type literal anywhere repeats one", async () => {
    const schemas = await contractObjectSchemas();
    const files = sourceFiles(root)
      .filter((file) => !file.endsWith(".test.ts") && !file.endsWith(".test.tsx"))
      .map(parse);
    expect(twins(handWrittenTypes(files), schemas)).toEqual([]);
  });

  it("would be told apart from a twin written out again, under another name or as an event's payload", async () => {
    const schemas = await contractObjectSchemas();
    const twinFile = ts.createSourceFile(
      path.join(root, "lib", "runs", "summaries.ts"),
      `interface Identified { id: string; workflowId: string }
       export interface ListedRun extends Identified { status: string; startedAt: string; endedAt: string | null; durationMs: number | null;
         tokens: unknown; cost: unknown; unpriced: boolean; estimated: boolean; trigger: unknown; deploymentId: string | null;
         workflowVersion: number | null; rerunOf: unknown; replayOf: string | null; test: boolean; budget: unknown }
       export type Replayed = { type: "run.replayed"; runId: string; replayOf: string } | { type: "run.other"; runId: string; other: string };
       export type Inferred = z.infer<typeof runSummarySchema>;`,
      ts.ScriptTarget.Latest,
      false,
    );
    const found = twins(handWrittenTypes([twinFile]), schemas);
    expect(found).toContainEqual(
      expect.stringMatching(
        /^ListedRun in lib.runs.summaries\.ts repeats the schema contract.runs\.ts: runSummarySchema/,
      ),
    );
    // Two fields outside contract/ are too few to call a twin; inside it they are enough.
    expect(found.some((twin) => twin.startsWith("Replayed"))).toBe(false);
    const inContract = ts.createSourceFile(
      path.join(root, "contract", "replays.ts"),
      twinFile.text,
      ts.ScriptTarget.Latest,
      false,
    );
    expect(twins(handWrittenTypes([inContract]), schemas)).toContainEqual(
      expect.stringMatching(
        /^Replayed in contract.replays\.ts repeats the schema contract.runs\.ts: replayStartedSchema/,
      ),
    );
    expect(found.some((twin) => twin.startsWith("Inferred"))).toBe(false);
  });
});
