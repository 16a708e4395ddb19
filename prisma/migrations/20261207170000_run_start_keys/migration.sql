-- AlterTable
ALTER TABLE "runs" ADD COLUMN     "user_id" TEXT;

-- CreateTable
CREATE TABLE "run_start_keys" (
    "id" TEXT NOT NULL,
    "workflow_id" TEXT NOT NULL,
    "idempotency_key" TEXT NOT NULL,
    "received_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "status" INTEGER,
    "run_id" TEXT,

    CONSTRAINT "run_start_keys_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "run_start_keys_received_at_idx" ON "run_start_keys"("received_at");

-- CreateIndex
CREATE UNIQUE INDEX "run_start_keys_workflow_id_idempotency_key_key" ON "run_start_keys"("workflow_id", "idempotency_key");

-- AddForeignKey
ALTER TABLE "run_start_keys" ADD CONSTRAINT "run_start_keys_workflow_id_fkey" FOREIGN KEY ("workflow_id") REFERENCES "workflows"("id") ON DELETE CASCADE ON UPDATE CASCADE;
