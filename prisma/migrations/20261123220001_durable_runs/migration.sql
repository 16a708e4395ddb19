-- AlterTable
ALTER TABLE "runs" ADD COLUMN     "document" JSONB,
ADD COLUMN     "parent_run_id" TEXT,
ADD COLUMN     "queued_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
ADD COLUMN     "recoveries" INTEGER NOT NULL DEFAULT 0,
ADD COLUMN     "worker" TEXT;

-- AlterTable
ALTER TABLE "spans" ADD COLUMN     "worker" TEXT;

-- CreateTable
CREATE TABLE "block_checkpoints" (
    "run_id" TEXT NOT NULL,
    "key" TEXT NOT NULL,
    "data" JSONB NOT NULL,
    "sealed" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "block_checkpoints_pkey" PRIMARY KEY ("run_id","key")
);

-- CreateTable
CREATE TABLE "workers" (
    "id" TEXT NOT NULL,
    "host" TEXT NOT NULL,
    "pid" INTEGER NOT NULL,
    "started_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "heartbeat_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "workers_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "workers_heartbeat_at_idx" ON "workers"("heartbeat_at");

-- CreateIndex
CREATE INDEX "runs_status_queued_at_idx" ON "runs"("status", "queued_at");

-- AddForeignKey
ALTER TABLE "block_checkpoints" ADD CONSTRAINT "block_checkpoints_run_id_fkey" FOREIGN KEY ("run_id") REFERENCES "runs"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- Runs stored before this migration were queued when they started
UPDATE "runs" SET "queued_at" = "started_at";
