-- AlterTable
ALTER TABLE "deployments" ADD COLUMN     "evaluation_id" TEXT,
ADD COLUMN     "gate_override" JSONB;

-- AlterTable
ALTER TABLE "schedule_fires" ADD COLUMN     "evaluation_id" TEXT;

-- AlterTable
ALTER TABLE "schedules" ADD COLUMN     "suite_id" TEXT;

-- CreateTable
CREATE TABLE "datasets" (
    "id" TEXT NOT NULL,
    "workspace_id" TEXT NOT NULL,
    "workflow_id" TEXT,
    "name" TEXT NOT NULL,
    "version" INTEGER NOT NULL DEFAULT 1,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "datasets_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "dataset_cases" (
    "id" TEXT NOT NULL,
    "dataset_id" TEXT NOT NULL,
    "case_id" TEXT NOT NULL,
    "position" INTEGER NOT NULL,
    "input" JSONB NOT NULL,
    "expected" JSONB,
    "note" TEXT NOT NULL DEFAULT '',
    "tags" TEXT[] DEFAULT ARRAY[]::TEXT[],
    "source_run_id" TEXT,
    "added_in" INTEGER NOT NULL,
    "removed_in" INTEGER,

    CONSTRAINT "dataset_cases_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "evaluation_suites" (
    "id" TEXT NOT NULL,
    "workspace_id" TEXT NOT NULL,
    "workflow_id" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "dataset_id" TEXT NOT NULL,
    "scorers" JSONB NOT NULL,
    "pass_threshold" DOUBLE PRECISION NOT NULL DEFAULT 1,
    "gate" JSONB,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "evaluation_suites_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "evaluations" (
    "id" TEXT NOT NULL,
    "workspace_id" TEXT NOT NULL,
    "workflow_id" TEXT NOT NULL,
    "suite_id" TEXT NOT NULL,
    "dataset_version" INTEGER NOT NULL,
    "target" TEXT NOT NULL,
    "workflow_version" INTEGER NOT NULL,
    "test" BOOLEAN NOT NULL DEFAULT true,
    "concurrency" INTEGER NOT NULL,
    "max_cost" DECIMAL(20,10),
    "status" TEXT NOT NULL,
    "stop_reason" TEXT,
    "case_count" INTEGER NOT NULL,
    "done_count" INTEGER NOT NULL DEFAULT 0,
    "summary" JSONB,
    "passed" BOOLEAN,
    "created_by_id" TEXT,
    "worker" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "ended_at" TIMESTAMPTZ(3),

    CONSTRAINT "evaluations_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "evaluation_cases" (
    "evaluation_id" TEXT NOT NULL,
    "case_id" TEXT NOT NULL,
    "position" INTEGER NOT NULL,
    "status" TEXT NOT NULL,
    "run_id" TEXT,
    "input" JSONB NOT NULL,
    "expected" JSONB,
    "output" JSONB,
    "scores" JSONB NOT NULL DEFAULT '[]',
    "score" DOUBLE PRECISION,
    "passed" BOOLEAN,
    "cost_total" DECIMAL(20,10),
    "scoring_cost" DECIMAL(20,10),
    "total_tokens" INTEGER,
    "duration_ms" INTEGER,
    "error" TEXT,

    CONSTRAINT "evaluation_cases_pkey" PRIMARY KEY ("evaluation_id","case_id")
);

-- CreateIndex
CREATE INDEX "datasets_workspace_id_created_at_id_idx" ON "datasets"("workspace_id", "created_at" DESC, "id" DESC);

-- CreateIndex
CREATE INDEX "dataset_cases_dataset_id_added_in_idx" ON "dataset_cases"("dataset_id", "added_in");

-- CreateIndex
CREATE INDEX "dataset_cases_dataset_id_case_id_idx" ON "dataset_cases"("dataset_id", "case_id");

-- CreateIndex
CREATE INDEX "evaluation_suites_workflow_id_created_at_idx" ON "evaluation_suites"("workflow_id", "created_at" DESC);

-- CreateIndex
CREATE INDEX "evaluations_workflow_id_created_at_id_idx" ON "evaluations"("workflow_id", "created_at" DESC, "id" DESC);

-- CreateIndex
CREATE INDEX "evaluations_suite_id_created_at_idx" ON "evaluations"("suite_id", "created_at" DESC);

-- AddForeignKey
ALTER TABLE "datasets" ADD CONSTRAINT "datasets_workspace_id_fkey" FOREIGN KEY ("workspace_id") REFERENCES "workspaces"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "dataset_cases" ADD CONSTRAINT "dataset_cases_dataset_id_fkey" FOREIGN KEY ("dataset_id") REFERENCES "datasets"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "evaluation_suites" ADD CONSTRAINT "evaluation_suites_workspace_id_fkey" FOREIGN KEY ("workspace_id") REFERENCES "workspaces"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "evaluation_suites" ADD CONSTRAINT "evaluation_suites_workflow_id_fkey" FOREIGN KEY ("workflow_id") REFERENCES "workflows"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "evaluation_suites" ADD CONSTRAINT "evaluation_suites_dataset_id_fkey" FOREIGN KEY ("dataset_id") REFERENCES "datasets"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "evaluations" ADD CONSTRAINT "evaluations_workspace_id_fkey" FOREIGN KEY ("workspace_id") REFERENCES "workspaces"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "evaluations" ADD CONSTRAINT "evaluations_workflow_id_fkey" FOREIGN KEY ("workflow_id") REFERENCES "workflows"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "evaluations" ADD CONSTRAINT "evaluations_suite_id_fkey" FOREIGN KEY ("suite_id") REFERENCES "evaluation_suites"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "evaluation_cases" ADD CONSTRAINT "evaluation_cases_evaluation_id_fkey" FOREIGN KEY ("evaluation_id") REFERENCES "evaluations"("id") ON DELETE CASCADE ON UPDATE CASCADE;
