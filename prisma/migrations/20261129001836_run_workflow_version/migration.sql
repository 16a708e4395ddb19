-- AlterTable
ALTER TABLE "runs" ADD COLUMN     "workflow_version" INTEGER;
