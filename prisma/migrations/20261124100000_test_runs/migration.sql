-- AlterTable
ALTER TABLE "runs" ADD COLUMN     "test" BOOLEAN NOT NULL DEFAULT false;

-- AlterTable
ALTER TABLE "spans" ADD COLUMN     "simulated" TEXT;
