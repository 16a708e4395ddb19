-- AlterTable
ALTER TABLE "spans" ADD COLUMN     "attempt" INTEGER;
