import fs from "node:fs";
import path from "node:path";
import { withBlockTable } from "@/blocks/docs-table";

/** `npm run docs:blocks`: rewrites docs/CONTRACT.md's block table from the block definitions. */
const file = path.resolve(import.meta.dirname, "..", "docs", "CONTRACT.md");
const before = fs.readFileSync(file, "utf8");
const after = withBlockTable(before);
if (after === before) console.log("docs/CONTRACT.md: the block table is up to date");
else {
  fs.writeFileSync(file, after);
  console.log("docs/CONTRACT.md: block table rewritten from the block definitions");
}
