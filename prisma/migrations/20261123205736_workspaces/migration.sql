-- DropIndex
DROP INDEX "secrets_name_key";

-- AlterTable
ALTER TABLE "api_keys" ADD COLUMN     "workspace_id" TEXT;

-- AlterTable
ALTER TABLE "knowledge_bases" ADD COLUMN     "workspace_id" TEXT;

-- AlterTable
ALTER TABLE "runs" ADD COLUMN     "workspace_id" TEXT;

-- AlterTable
ALTER TABLE "secrets" ADD COLUMN     "workspace_id" TEXT;

-- AlterTable
ALTER TABLE "workflows" ADD COLUMN     "workspace_id" TEXT;

-- CreateTable
CREATE TABLE "workspaces" (
    "id" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "workspaces_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "workspace_members" (
    "workspace_id" TEXT NOT NULL,
    "user_id" TEXT NOT NULL,
    "role" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "workspace_members_pkey" PRIMARY KEY ("workspace_id","user_id")
);

-- CreateTable
CREATE TABLE "workspace_invitations" (
    "id" TEXT NOT NULL,
    "workspace_id" TEXT NOT NULL,
    "email" TEXT NOT NULL,
    "role" TEXT NOT NULL,
    "token_hash" TEXT NOT NULL,
    "invited_by_id" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "expires_at" TIMESTAMPTZ(3) NOT NULL,
    "accepted_at" TIMESTAMPTZ(3),

    CONSTRAINT "workspace_invitations_pkey" PRIMARY KEY ("id")
);

-- Existing data moves into a first workspace, owned by the first user (the owner), and any later
-- user joins it as an editor. Without users or data nothing is made here: the owner's account makes
-- the first workspace (WorkspaceRepository.ensureFirstWorkspace) and adopts this one if it has no
-- member. No semicolons in these comments: the schema engine splits the script on them.
INSERT INTO "workspaces" ("id", "name")
SELECT '019ab0a0-0000-7000-8000-000000000001', 'Main workspace'
WHERE EXISTS (SELECT 1 FROM "users") OR EXISTS (SELECT 1 FROM "workflows") OR EXISTS (SELECT 1 FROM "knowledge_bases")
   OR EXISTS (SELECT 1 FROM "secrets") OR EXISTS (SELECT 1 FROM "api_keys");

INSERT INTO "workspace_members" ("workspace_id", "user_id", "role", "created_at")
SELECT '019ab0a0-0000-7000-8000-000000000001', "id",
       CASE WHEN row_number() OVER (ORDER BY "created_at", "id") = 1 THEN 'owner' ELSE 'editor' END,
       "created_at"
FROM "users";

UPDATE "workflows" SET "workspace_id" = '019ab0a0-0000-7000-8000-000000000001';
UPDATE "runs" SET "workspace_id" = '019ab0a0-0000-7000-8000-000000000001';
UPDATE "knowledge_bases" SET "workspace_id" = '019ab0a0-0000-7000-8000-000000000001';
UPDATE "secrets" SET "workspace_id" = '019ab0a0-0000-7000-8000-000000000001';
UPDATE "api_keys" SET "workspace_id" = '019ab0a0-0000-7000-8000-000000000001';

ALTER TABLE "workflows" ALTER COLUMN "workspace_id" SET NOT NULL;
ALTER TABLE "runs" ALTER COLUMN "workspace_id" SET NOT NULL;
ALTER TABLE "knowledge_bases" ALTER COLUMN "workspace_id" SET NOT NULL;
ALTER TABLE "secrets" ALTER COLUMN "workspace_id" SET NOT NULL;
ALTER TABLE "api_keys" ALTER COLUMN "workspace_id" SET NOT NULL;

-- CreateIndex
CREATE INDEX "workspace_members_user_id_idx" ON "workspace_members"("user_id");

-- CreateIndex
CREATE UNIQUE INDEX "workspace_invitations_token_hash_key" ON "workspace_invitations"("token_hash");

-- CreateIndex
CREATE INDEX "workspace_invitations_workspace_id_email_idx" ON "workspace_invitations"("workspace_id", "email");

-- CreateIndex
CREATE INDEX "api_keys_workspace_id_idx" ON "api_keys"("workspace_id");

-- CreateIndex
CREATE INDEX "knowledge_bases_workspace_id_idx" ON "knowledge_bases"("workspace_id");

-- CreateIndex
CREATE INDEX "runs_workspace_id_idx" ON "runs"("workspace_id");

-- CreateIndex
CREATE UNIQUE INDEX "secrets_workspace_id_name_key" ON "secrets"("workspace_id", "name");

-- CreateIndex
CREATE INDEX "workflows_workspace_id_updated_at_idx" ON "workflows"("workspace_id", "updated_at" DESC);

-- AddForeignKey
ALTER TABLE "workflows" ADD CONSTRAINT "workflows_workspace_id_fkey" FOREIGN KEY ("workspace_id") REFERENCES "workspaces"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "runs" ADD CONSTRAINT "runs_workspace_id_fkey" FOREIGN KEY ("workspace_id") REFERENCES "workspaces"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "secrets" ADD CONSTRAINT "secrets_workspace_id_fkey" FOREIGN KEY ("workspace_id") REFERENCES "workspaces"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "knowledge_bases" ADD CONSTRAINT "knowledge_bases_workspace_id_fkey" FOREIGN KEY ("workspace_id") REFERENCES "workspaces"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "api_keys" ADD CONSTRAINT "api_keys_workspace_id_fkey" FOREIGN KEY ("workspace_id") REFERENCES "workspaces"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "workspace_members" ADD CONSTRAINT "workspace_members_workspace_id_fkey" FOREIGN KEY ("workspace_id") REFERENCES "workspaces"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "workspace_members" ADD CONSTRAINT "workspace_members_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "workspace_invitations" ADD CONSTRAINT "workspace_invitations_workspace_id_fkey" FOREIGN KEY ("workspace_id") REFERENCES "workspaces"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "workspace_invitations" ADD CONSTRAINT "workspace_invitations_invited_by_id_fkey" FOREIGN KEY ("invited_by_id") REFERENCES "users"("id") ON DELETE SET NULL ON UPDATE CASCADE;
