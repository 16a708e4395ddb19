-- AlterTable
ALTER TABLE "spans" ADD COLUMN     "price" JSONB;

-- CreateTable
CREATE TABLE "price_overrides" (
    "workspace_id" TEXT NOT NULL,
    "model" TEXT NOT NULL,
    "input" DOUBLE PRECISION NOT NULL,
    "output" DOUBLE PRECISION NOT NULL,
    "cached_input" DOUBLE PRECISION,
    "cache_write" DOUBLE PRECISION,
    "reasoning" DOUBLE PRECISION,
    "note" TEXT,
    "updated_by" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "price_overrides_pkey" PRIMARY KEY ("workspace_id","model")
);

-- AddForeignKey
ALTER TABLE "price_overrides" ADD CONSTRAINT "price_overrides_workspace_id_fkey" FOREIGN KEY ("workspace_id") REFERENCES "workspaces"("id") ON DELETE CASCADE ON UPDATE CASCADE;
