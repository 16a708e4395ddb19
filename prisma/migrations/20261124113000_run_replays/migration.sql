-- AlterTable
ALTER TABLE "runs" ADD COLUMN     "replay_of_run_id" TEXT;

-- CreateIndex
CREATE INDEX "runs_replay_of_run_id_idx" ON "runs"("replay_of_run_id");

-- AddForeignKey
ALTER TABLE "runs" ADD CONSTRAINT "runs_replay_of_run_id_fkey" FOREIGN KEY ("replay_of_run_id") REFERENCES "runs"("id") ON DELETE SET NULL ON UPDATE CASCADE;
