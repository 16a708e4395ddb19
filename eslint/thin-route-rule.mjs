/**
 * A route file under app/api binds endpoints to HTTP methods and holds no logic: parsing, access,
 * errors and wiring live in lib/, where they are tested over a test database. So a route file holds
 * imports and exported constants bound to a call (`export const GET = route(...)`), to an imported
 * handler (`export const GET = answerApiRequest`) or to a literal
 * (`export const dynamic = "force-dynamic"`), no function of its own, and it never reaches the
 * composition root or the database itself.
 */
const wiring = /^@\/lib\/(runtime|db)(\/|$)/;
const functionNode = new Set([
  "ArrowFunctionExpression",
  "FunctionExpression",
  "FunctionDeclaration",
  "ClassExpression",
  "ClassDeclaration",
]);

/** The first function or class anywhere below `node`, or null. */
function functionInside(node, visitorKeys) {
  if (!node || typeof node.type !== "string") return null;
  if (functionNode.has(node.type)) return node;
  for (const key of visitorKeys[node.type] ?? []) {
    const child = node[key];
    for (const item of Array.isArray(child) ? child : [child]) {
      const found = functionInside(item, visitorKeys);
      if (found) return found;
    }
  }
  return null;
}

export const thinRouteRule = {
  meta: {
    type: "problem",
    docs: { description: "a route file under app/api only binds endpoints declared in lib/" },
    schema: [],
    messages: {
      logic:
        "A route file only binds handlers declared in lib/ (`export const GET = answerApiRequest`); move this into lib/, where it is tested (docs/ARCHITECTURE.md).",
      wiring: "A route file does not reach {{source}}: the endpoint in lib/ does its wiring (docs/ARCHITECTURE.md).",
      unbound: "This route file binds no endpoint: export a method bound to a handler from lib/.",
    },
  },
  create(context) {
    const visitorKeys = context.sourceCode.visitorKeys;
    return {
      Program(program) {
        let bindings = 0;
        for (const statement of program.body) {
          if (statement.type === "ImportDeclaration") {
            if (wiring.test(statement.source.value))
              context.report({ node: statement.source, messageId: "wiring", data: { source: statement.source.value } });
            continue;
          }
          const declaration = statement.type === "ExportNamedDeclaration" ? statement.declaration : null;
          if (statement.type === "ExportNamedDeclaration" && !declaration) continue; // export { x } / export { x } from "..."
          if (declaration?.type !== "VariableDeclaration" || declaration.kind !== "const") {
            context.report({ node: statement, messageId: "logic" });
            continue;
          }
          for (const declarator of declaration.declarations) {
            const init = declarator.init;
            // `route(...)` or an imported handler itself (`export const GET = answerApiRequest`).
            const bound =
              (init?.type === "CallExpression" && !functionInside(init, visitorKeys)) || init?.type === "Identifier";
            if (bound) bindings += 1;
            else if (init?.type !== "Literal") context.report({ node: declarator, messageId: "logic" });
          }
        }
        if (bindings === 0) context.report({ node: program, messageId: "unbound" });
      },
    };
  },
};
