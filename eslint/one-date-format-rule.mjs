/**
 * Every page shows a moment through components/ui/date-time.ts, so the same instant never reads two
 * ways (home once showed "11/23/2026, 5:13:49 PM" and the run history "23/11/2026, 17:18:09").
 * A date formatted in a shape of its own is `toLocaleDateString`, `toLocaleTimeString`, or
 * `new Date(x).toLocaleString(...)`; a number's `toLocaleString("en-US")` (token counts, dollars)
 * is not a date and passes.
 */
export const oneDateFormatRule = {
  meta: {
    type: "problem",
    docs: { description: "format dates with components/ui/date-time.ts, not toLocale*String" },
    schema: [],
    messages: {
      own: "Format dates with formatDateTime, formatDate or formatTimeOfDay (components/ui/date-time.ts), not {{call}}: every page shows a moment one way.",
    },
  },
  create(context) {
    return {
      "CallExpression > MemberExpression.callee"(node) {
        if (node.computed || node.property.type !== "Identifier") return;
        const method = node.property.name;
        const onNewDate =
          node.object.type === "NewExpression" &&
          node.object.callee.type === "Identifier" &&
          node.object.callee.name === "Date";
        if (
          method === "toLocaleDateString" ||
          method === "toLocaleTimeString" ||
          (method === "toLocaleString" && onNewDate)
        ) {
          context.report({ node: node.parent, messageId: "own", data: { call: method } });
        }
      },
    };
  },
};
