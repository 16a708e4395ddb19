import { trellisPlugin } from "./index.mjs";
import { ruleTester } from "./rule-tester";

ruleTester.run("one-date-format", trellisPlugin.rules["one-date-format"], {
  valid: [
    'import { formatDateTime } from "@/components/ui/date-time"; const shown = formatDateTime(run.startedAt);',
    // Numbers (token counts, dollars) are not dates.
    'const tokens = count.toLocaleString("en-US");',
    "const label = <span>{total.toLocaleString()}</span>;",
  ],
  invalid: [
    {
      code: 'const shown = new Date(run.startedAt).toLocaleString("en-US");',
      errors: [{ messageId: "own", data: { call: "toLocaleString" } }],
    },
    {
      code: "const day = <td>{date.toLocaleDateString()}</td>;",
      errors: [{ messageId: "own", data: { call: "toLocaleDateString" } }],
    },
    {
      code: "const at = new Date().toLocaleTimeString(undefined, { hour: '2-digit' });",
      errors: [{ messageId: "own", data: { call: "toLocaleTimeString" } }],
    },
  ],
});
