import fs from "node:fs";
import path from "node:path";

/**
 * A folder with an index.ts is one unit: code outside it imports the index (or an entry the
 * folder declares, such as a server-only surface), never the files behind it. Inside the folder,
 * files import each other freely.
 */
const root = path.resolve(import.meta.dirname, "..");
const hasIndex = new Map();

function folderHasIndex(folder) {
  if (!hasIndex.has(folder))
    hasIndex.set(
      folder,
      fs.existsSync(path.join(root, folder, "index.ts")) || fs.existsSync(path.join(root, folder, "index.tsx")),
    );
  return hasIndex.get(folder);
}

/** The project path an import points at (`executor/engine`), or null for packages. */
function targetOf(specifier, importer) {
  if (specifier.startsWith("@/")) return specifier.slice(2).replace(/\/$/, "");
  if (specifier.startsWith("."))
    return path
      .relative(root, path.resolve(path.dirname(importer), specifier))
      .split(path.sep)
      .join("/");
  return null;
}

export const folderEntryRule = {
  meta: {
    type: "problem",
    docs: { description: "import a folder through its index.ts (or a declared entry), not the files behind it" },
    schema: [{ type: "object", properties: { entries: { type: "object" } }, additionalProperties: false }],
    messages: {
      deep: "Import '{{folder}}' through its index ('@/{{folder}}'{{entries}}), not '{{specifier}}': the files behind an index.ts are the folder's own (docs/ARCHITECTURE.md).",
    },
  },
  create(context) {
    const entries = context.options[0]?.entries ?? {};
    const importer = context.filename;
    const importerPath = path.relative(root, importer).split(path.sep).join("/");
    function check(node, specifier) {
      const target = targetOf(specifier, importer);
      if (!target || target.startsWith("..")) return;
      const parts = target.split("/");
      for (let length = 1; length < parts.length; length += 1) {
        const folder = parts.slice(0, length).join("/");
        if (importerPath.startsWith(`${folder}/`)) continue; // inside the folder: free
        if (!folderHasIndex(folder)) continue;
        const rest = parts.slice(length).join("/");
        if (rest === "index" || (entries[folder] ?? []).includes(rest)) return;
        const allowed = (entries[folder] ?? []).map((entry) => ` or '@/${folder}/${entry}'`).join("");
        context.report({ node, messageId: "deep", data: { folder, specifier, entries: allowed } });
        return;
      }
    }
    return {
      ImportDeclaration: (node) => check(node.source, node.source.value),
      ExportNamedDeclaration: (node) => node.source && check(node.source, node.source.value),
      ExportAllDeclaration: (node) => check(node.source, node.source.value),
      ImportExpression: (node) =>
        node.source.type === "Literal" &&
        typeof node.source.value === "string" &&
        check(node.source, node.source.value),
    };
  },
};
