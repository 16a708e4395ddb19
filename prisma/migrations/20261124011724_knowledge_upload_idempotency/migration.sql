-- CreateTable
CREATE TABLE "knowledge_uploads" (
    "knowledge_base_id" TEXT NOT NULL,
    "idempotency_key" TEXT NOT NULL,
    "documents" JSONB NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "knowledge_uploads_pkey" PRIMARY KEY ("knowledge_base_id","idempotency_key")
);

-- AddForeignKey
ALTER TABLE "knowledge_uploads" ADD CONSTRAINT "knowledge_uploads_knowledge_base_id_fkey" FOREIGN KEY ("knowledge_base_id") REFERENCES "knowledge_bases"("id") ON DELETE CASCADE ON UPDATE CASCADE;
