-- AlterTable
ALTER TABLE "runs" DROP COLUMN "last_event_seq";
