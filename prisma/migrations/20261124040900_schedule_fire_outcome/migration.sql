-- AlterTable
ALTER TABLE "schedule_fires" ADD COLUMN     "claimed_by" TEXT,
ADD COLUMN     "error" TEXT;

-- AlterTable
ALTER TABLE "schedules" ADD COLUMN     "resumed_at" TIMESTAMPTZ(3);
