import type { ESLint, Rule } from "eslint";

export declare const trellisPlugin: ESLint.Plugin & {
  rules: Record<
    "client-server" | "database-test-name" | "folder-entry" | "one-date-format" | "thin-route",
    Rule.RuleModule
  >;
};
