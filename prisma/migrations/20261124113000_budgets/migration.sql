-- AlterTable
ALTER TABLE "runs" ADD COLUMN     "budget" JSONB;

-- CreateTable
CREATE TABLE "budget_caps" (
    "workspace_id" TEXT NOT NULL,
    "scope" TEXT NOT NULL,
    "scope_id" TEXT NOT NULL,
    "monthly_cap" DECIMAL(20,10) NOT NULL,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "budget_caps_pkey" PRIMARY KEY ("workspace_id","scope","scope_id")
);

-- AddForeignKey
ALTER TABLE "budget_caps" ADD CONSTRAINT "budget_caps_workspace_id_fkey" FOREIGN KEY ("workspace_id") REFERENCES "workspaces"("id") ON DELETE CASCADE ON UPDATE CASCADE;
