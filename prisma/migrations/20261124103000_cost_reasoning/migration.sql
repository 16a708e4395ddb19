-- AlterTable
ALTER TABLE "runs" ADD COLUMN     "cost_reasoning" DECIMAL(20,10);

-- AlterTable
ALTER TABLE "spans" ADD COLUMN     "cost_reasoning" DECIMAL(20,10);
