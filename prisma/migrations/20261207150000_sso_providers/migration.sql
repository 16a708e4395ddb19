-- CreateTable
CREATE TABLE "sso_providers" (
    "id" TEXT NOT NULL,
    "workspace_id" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "issuer" TEXT NOT NULL,
    "client_id" TEXT NOT NULL,
    "secret_ciphertext" BYTEA,
    "secret_iv" BYTEA,
    "secret_auth_tag" BYTEA,
    "allowed_domains" TEXT[],
    "default_role" TEXT NOT NULL,
    "groups_claim" TEXT,
    "group_roles" JSONB NOT NULL DEFAULT '{}',
    "password_sign_in" BOOLEAN NOT NULL DEFAULT true,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "sso_providers_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "sso_providers_workspace_id_key" ON "sso_providers"("workspace_id");

-- AddForeignKey
ALTER TABLE "sso_providers" ADD CONSTRAINT "sso_providers_workspace_id_fkey" FOREIGN KEY ("workspace_id") REFERENCES "workspaces"("id") ON DELETE CASCADE ON UPDATE CASCADE;
