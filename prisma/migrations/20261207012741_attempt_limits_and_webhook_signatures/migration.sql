-- CreateTable
CREATE TABLE "attempt_limits" (
    "key" TEXT NOT NULL,
    "failures" INTEGER NOT NULL,
    "last_failure_at" BIGINT NOT NULL,
    "blocked_until" BIGINT NOT NULL,

    CONSTRAINT "attempt_limits_pkey" PRIMARY KEY ("key")
);

-- CreateTable
CREATE TABLE "webhook_signatures_seen" (
    "webhook_id" TEXT NOT NULL,
    "signature" TEXT NOT NULL,
    "expires_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "webhook_signatures_seen_pkey" PRIMARY KEY ("webhook_id","signature")
);

-- CreateIndex
CREATE INDEX "attempt_limits_last_failure_at_idx" ON "attempt_limits"("last_failure_at");

-- CreateIndex
CREATE INDEX "webhook_signatures_seen_expires_at_idx" ON "webhook_signatures_seen"("expires_at");

-- AddForeignKey
ALTER TABLE "webhook_signatures_seen" ADD CONSTRAINT "webhook_signatures_seen_webhook_id_fkey" FOREIGN KEY ("webhook_id") REFERENCES "webhooks"("id") ON DELETE CASCADE ON UPDATE CASCADE;
