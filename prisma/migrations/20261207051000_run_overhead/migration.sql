-- AlterTable
ALTER TABLE "runs" ADD COLUMN     "overhead" JSONB;
