-- AlterTable
ALTER TABLE "api_keys" ADD COLUMN     "minted_by_key_id" TEXT;

-- CreateIndex
CREATE INDEX "api_keys_minted_by_key_id_idx" ON "api_keys"("minted_by_key_id");

-- AddForeignKey
ALTER TABLE "api_keys" ADD CONSTRAINT "api_keys_minted_by_key_id_fkey" FOREIGN KEY ("minted_by_key_id") REFERENCES "api_keys"("id") ON DELETE CASCADE ON UPDATE CASCADE;
