-- AlterTable
ALTER TABLE "runs" ADD COLUMN     "trace_parent" TEXT;
