import fs from "node:fs";
import path from "node:path";

/**
 * Client code (components/, and any file marked "use client") must not reach server-only code:
 * a module that imports "server-only", directly or through the modules it imports at run time.
 * Next.js refuses such an import at build time; this says so at lint time, naming the chain.
 */
const root = path.resolve(import.meta.dirname, "..");
const extensions = [".ts", ".tsx", "/index.ts", "/index.tsx", ".mjs", ".js"];
const runtimeImport = /^\s*(?:import|export)\s+(?!type\b)(?:[^'";]*?\sfrom\s+)?["']([^"']+)["']/gm;
const serverOnlyMarker = /^\s*import\s+["']server-only["']/m;

function resolveFile(specifier, fromFile) {
  let base;
  if (specifier.startsWith("@/")) base = path.join(root, specifier.slice(2));
  else if (specifier.startsWith(".")) base = path.resolve(path.dirname(fromFile), specifier);
  else return null;
  if (fs.existsSync(base) && fs.statSync(base).isFile()) return base;
  for (const extension of extensions) if (fs.existsSync(base + extension)) return base + extension;
  return null;
}

const chains = new Map();

/** The import chain from `file` to a server-only module, or null when there is none. */
function serverChain(file, visiting = new Set()) {
  if (chains.has(file)) return chains.get(file);
  if (visiting.has(file)) return null;
  visiting.add(file);
  const text = fs.readFileSync(file, "utf8");
  let chain = null;
  if (serverOnlyMarker.test(text)) chain = [file];
  else {
    for (const match of text.matchAll(runtimeImport)) {
      const target = resolveFile(match[1], file);
      if (!target) continue;
      const rest = serverChain(target, visiting);
      if (rest) {
        chain = [file, ...rest];
        break;
      }
    }
  }
  visiting.delete(file);
  chains.set(file, chain);
  return chain;
}

export const clientServerRule = {
  meta: {
    type: "problem",
    docs: { description: "client code may not import server-only modules" },
    schema: [],
    messages: { server: "Client code imports server-only code: {{chain}} (docs/ARCHITECTURE.md)." },
  },
  create(context) {
    const filename = context.filename;
    const relative = path.relative(root, filename).split(path.sep).join("/");
    const source = context.sourceCode.getText();
    const isClient = relative.startsWith("components/") || /^\s*["']use client["']/.test(source);
    if (!isClient) return {};
    function check(node, specifier, typeOnly) {
      if (typeOnly) return;
      const target = resolveFile(specifier, filename);
      if (!target) return;
      const chain = serverChain(target);
      if (chain)
        context.report({
          node,
          messageId: "server",
          data: { chain: [relative, ...chain.map((file) => path.relative(root, file))].join(" -> ") },
        });
    }
    return {
      ImportDeclaration: (node) =>
        check(
          node.source,
          node.source.value,
          node.importKind === "type" ||
            (node.specifiers.length > 0 && node.specifiers.every((specifier) => specifier.importKind === "type")),
        ),
      ExportNamedDeclaration: (node) =>
        node.source && check(node.source, node.source.value, node.exportKind === "type"),
      ExportAllDeclaration: (node) => check(node.source, node.source.value, node.exportKind === "type"),
    };
  },
};
