-- AlterTable
ALTER TABLE "runs" ADD COLUMN     "rerun_of_block_id" TEXT,
ADD COLUMN     "rerun_of_run_id" TEXT;

-- AlterTable
ALTER TABLE "spans" ADD COLUMN     "reused_from" TEXT;

-- CreateIndex
CREATE INDEX "runs_rerun_of_run_id_idx" ON "runs"("rerun_of_run_id");

-- AddForeignKey
ALTER TABLE "runs" ADD CONSTRAINT "runs_rerun_of_run_id_fkey" FOREIGN KEY ("rerun_of_run_id") REFERENCES "runs"("id") ON DELETE SET NULL ON UPDATE CASCADE;
