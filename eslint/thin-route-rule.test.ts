import { trellisPlugin } from "./index.mjs";
import { ruleTester } from "./rule-tester";

const binding = 'import { route } from "@/lib/http/route";\nimport { appRunEndpoints } from "@/lib/runs";\n';

ruleTester.run("thin-route", trellisPlugin.rules["thin-route"], {
  valid: [
    `${binding}export const dynamic = "force-dynamic";\nexport const GET = route(appRunEndpoints.list);\nexport const POST = route(appRunEndpoints.start);`,
    `${binding}export const { GET, POST } = route(appRunEndpoints.document);`,
    `import { answerApiRequest } from "@/lib/api";\nexport const dynamic = "force-dynamic";\nexport const GET = answerApiRequest;\nexport const POST = answerApiRequest;`,
  ],
  invalid: [
    {
      // Logic of its own: a handler written in the route file.
      code: `${binding}export async function GET(request: Request) { return Response.json(await request.json()); }`,
      errors: [{ messageId: "unbound" }, { messageId: "logic" }],
    },
    {
      code: `${binding}export const GET = route(async () => Response.json({ ok: true }));`,
      errors: [{ messageId: "unbound" }, { messageId: "logic" }],
    },
    {
      code: `import { getRuntime } from "@/lib/runtime";\n${binding}export const GET = route(appRunEndpoints.list);`,
      errors: [{ messageId: "wiring", data: { source: "@/lib/runtime" } }],
    },
    {
      code: `import { getPrisma } from "@/lib/db";\n${binding}const prisma = getPrisma();\nexport const GET = route(appRunEndpoints.list);`,
      errors: [{ messageId: "wiring" }, { messageId: "logic" }],
    },
    { code: `${binding}export const dynamic = "force-dynamic";`, errors: [{ messageId: "unbound" }] },
  ],
});
