/**
 * CI runs the tests that touch a database twice, on PostgreSQL and on the embedded database, and the
 * others once; it tells them apart by name (`*.db.test.ts`, vitest.config.ts). A test that opens a
 * database through the app is stopped at run time when it is misnamed; this catches, at lint time,
 * the tests that name the database themselves: they open one, or read which one the run has
 * (DATABASE_URL), and a misnamed one would silently run on one database only.
 */
const databaseModule = /(^@\/lib\/db(\/|$))|(^\.{1,2}\/(.*\/)?(db|test-database|test-env|client)$)/;
const databaseOpeners = new Set(["createTestDatabase", "getPrisma", "getDatabase", "createPrisma", "TEST_ENV"]);

export const databaseTestNameRule = {
  meta: {
    type: "problem",
    docs: { description: "a test that touches a database is named *.db.test.ts" },
    schema: [],
    messages: {
      name: "This test touches a database ({{what}}): name it *.db.test.ts(x), so CI runs it on PostgreSQL and on the embedded database (vitest.config.ts).",
    },
  },
  create(context) {
    if (/\.db\.test\.tsx?$/.test(context.filename)) return {};
    const report = (node, what) => context.report({ node, messageId: "name", data: { what } });
    return {
      ImportDeclaration(node) {
        if (node.importKind === "type" || !databaseModule.test(node.source.value)) return;
        for (const specifier of node.specifiers) {
          if (
            specifier.type === "ImportSpecifier" &&
            specifier.importKind !== "type" &&
            databaseOpeners.has(specifier.imported.name)
          ) {
            report(specifier, specifier.imported.name);
          }
        }
      },
      MemberExpression(node) {
        const key = node.computed
          ? node.property.type === "Literal"
            ? node.property.value
            : null
          : node.property.name;
        if (key !== "DATABASE_URL") return;
        const object = node.object;
        const onEnv = object.type === "MemberExpression" && !object.computed && object.property.name === "env";
        if (onEnv) report(node, "DATABASE_URL");
      },
    };
  },
};
