-- CreateTable
CREATE TABLE "cache_generations" (
    "workspace_id" TEXT NOT NULL,
    "generation" BIGINT NOT NULL DEFAULT 0,

    CONSTRAINT "cache_generations_pkey" PRIMARY KEY ("workspace_id")
);

-- What runs read per workspace and processes cache (lib/cache): a change bumps the workspace's
-- generation and notifies every process on the run bus's channel, in the changing transaction, so
-- the notification goes out exactly when the change commits, whichever code made it.
-- The body is an escaped string with \073 for each semicolon: Prisma's PostgreSQL adapter runs a
-- migration by splitting it at every semicolon, dollar quotes included.
CREATE FUNCTION "trellis_cache_changed"() RETURNS trigger LANGUAGE plpgsql AS E'
DECLARE
  changed_workspace TEXT\073
  next_generation BIGINT\073
BEGIN
  IF TG_OP = ''DELETE'' THEN changed_workspace := OLD.workspace_id\073 ELSE changed_workspace := NEW.workspace_id\073 END IF\073
  INSERT INTO cache_generations AS known (workspace_id, generation) VALUES (changed_workspace, 1)
    ON CONFLICT (workspace_id) DO UPDATE SET generation = known.generation + 1
    RETURNING known.generation INTO next_generation\073
  PERFORM pg_notify(''trellis_runs'', json_build_object(''kind'', ''cache'', ''workspaceId'', changed_workspace, ''generation'', next_generation)::text)\073
  RETURN NULL\073
END
';

CREATE TRIGGER "secrets_cache_changed" AFTER INSERT OR UPDATE OR DELETE ON "secrets"
  FOR EACH ROW EXECUTE FUNCTION "trellis_cache_changed"();
CREATE TRIGGER "price_overrides_cache_changed" AFTER INSERT OR UPDATE OR DELETE ON "price_overrides"
  FOR EACH ROW EXECUTE FUNCTION "trellis_cache_changed"();
CREATE TRIGGER "budget_caps_cache_changed" AFTER INSERT OR UPDATE OR DELETE ON "budget_caps"
  FOR EACH ROW EXECUTE FUNCTION "trellis_cache_changed"();
-- A deploy or a rollback moves the workflow's active deployment, a draft's edits do not touch it.
CREATE TRIGGER "workflows_active_deployment_changed" AFTER UPDATE OF "active_deployment_id" ON "workflows"
  FOR EACH ROW WHEN (OLD."active_deployment_id" IS DISTINCT FROM NEW."active_deployment_id") EXECUTE FUNCTION "trellis_cache_changed"();
CREATE TRIGGER "workflows_cache_deleted" AFTER DELETE ON "workflows"
  FOR EACH ROW EXECUTE FUNCTION "trellis_cache_changed"();
