-- DropIndex
DROP INDEX "api_keys_workspace_id_idx";

-- DropIndex
DROP INDEX "knowledge_bases_workspace_id_idx";

-- DropIndex
DROP INDEX "knowledge_documents_knowledge_base_id_created_at_idx";

-- DropIndex
DROP INDEX "workflows_workspace_id_updated_at_idx";

-- DropIndex
DROP INDEX "workspace_members_user_id_idx";

-- CreateIndex
CREATE INDEX "api_keys_workspace_id_user_id_created_at_id_idx" ON "api_keys"("workspace_id", "user_id", "created_at" DESC, "id" DESC);

-- CreateIndex
CREATE INDEX "knowledge_bases_workspace_id_created_at_id_idx" ON "knowledge_bases"("workspace_id", "created_at" DESC, "id" DESC);

-- CreateIndex
CREATE INDEX "knowledge_documents_knowledge_base_id_created_at_id_idx" ON "knowledge_documents"("knowledge_base_id", "created_at" DESC, "id" DESC);

-- CreateIndex
CREATE INDEX "runs_workflow_id_queued_at_id_idx" ON "runs"("workflow_id", "queued_at" DESC, "id" DESC);

-- CreateIndex
CREATE INDEX "workflows_workspace_id_updated_at_id_idx" ON "workflows"("workspace_id", "updated_at" DESC, "id" DESC);

-- CreateIndex
CREATE INDEX "workspace_invitations_workspace_id_created_at_id_idx" ON "workspace_invitations"("workspace_id", "created_at" DESC, "id" DESC);

-- CreateIndex
CREATE INDEX "workspace_members_user_id_created_at_workspace_id_idx" ON "workspace_members"("user_id", "created_at", "workspace_id");

-- CreateIndex
CREATE INDEX "workspace_members_workspace_id_created_at_user_id_idx" ON "workspace_members"("workspace_id", "created_at", "user_id");
