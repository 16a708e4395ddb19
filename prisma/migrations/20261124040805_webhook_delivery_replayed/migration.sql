-- AlterTable
ALTER TABLE "webhook_deliveries" ADD COLUMN     "replayed" BOOLEAN NOT NULL DEFAULT false,
ALTER COLUMN "status" DROP NOT NULL;
