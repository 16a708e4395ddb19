import { clientServerRule } from "./client-server-rule.mjs";
import { databaseTestNameRule } from "./database-test-name-rule.mjs";
import { folderEntryRule } from "./folder-entry-rule.mjs";
import { oneDateFormatRule } from "./one-date-format-rule.mjs";
import { thinRouteRule } from "./thin-route-rule.mjs";

/** Trellis's own lint rules, the project's conventions that a library rule does not cover (eslint.config.mjs). */
export const trellisPlugin = {
  meta: { name: "trellis" },
  rules: {
    "client-server": clientServerRule,
    "database-test-name": databaseTestNameRule,
    "folder-entry": folderEntryRule,
    "one-date-format": oneDateFormatRule,
    "thin-route": thinRouteRule,
  },
};
