-- CreateTable
CREATE TABLE "run_signals" (
    "id" BIGSERIAL NOT NULL,
    "run_id" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "payload" JSONB NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "run_signals_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "run_signals_created_at_idx" ON "run_signals"("created_at");
