import { afterAll, describe, expect, it } from "vitest";
import { closeDatabase, getDatabase, getPrisma } from "./client";

describe("getPrisma", () => {
  afterAll(closeDatabase);

  it("opens the configured backend once, migrated, and reuses it", async () => {
    const prisma = getPrisma();
    expect(getPrisma()).toBe(prisma);
    expect(getDatabase().backend).toBe(process.env.DATABASE_URL ? "postgres" : "embedded");
    // The test run's database (lib/db/test-global-setup.ts) already has the tables.
    const created = await prisma.workflow.create({
      data: {
        name: "Through getPrisma",
        document: { blocks: [], edges: [], variables: {} },
        workspace: { create: { name: "Through getPrisma" } },
      },
    });
    expect(await prisma.workflow.findUnique({ where: { id: created.id } })).toMatchObject({
      name: "Through getPrisma",
      version: 1,
    });
  });
});
