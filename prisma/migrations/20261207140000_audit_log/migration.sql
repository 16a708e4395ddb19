-- CreateTable
CREATE TABLE "audit_entries" (
    "id" TEXT NOT NULL,
    "workspace_id" TEXT NOT NULL,
    "at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "actor_kind" TEXT NOT NULL,
    "actor_id" TEXT NOT NULL,
    "actor_name" TEXT NOT NULL,
    "actor_user_id" TEXT NOT NULL,
    "action" TEXT NOT NULL,
    "object_type" TEXT NOT NULL,
    "object_id" TEXT NOT NULL,
    "object_name" TEXT,
    "address" TEXT,
    "summary" JSONB NOT NULL DEFAULT '{}',

    CONSTRAINT "audit_entries_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "audit_entries_workspace_id_at_id_idx" ON "audit_entries"("workspace_id", "at" DESC, "id" DESC);

-- CreateIndex
CREATE INDEX "audit_entries_at_idx" ON "audit_entries"("at");

-- The log is append-only whatever code reaches the database: an UPDATE or TRUNCATE is refused, and
-- a DELETE too unless the transaction has set trellis.audit_retention to 'sweep' (set_config local
-- to the transaction, as lib/audit/audit-retention.ts does) and the row is older than the cutoff it
-- set beside it, a cutoff a day old at least (the shortest retention), so no entry younger than a
-- day is ever deleted, whatever the code asking.
-- The body is an escaped string with \073 for each semicolon: Prisma's PostgreSQL adapter runs a
-- migration by splitting it at every semicolon, dollar quotes included.
CREATE FUNCTION "trellis_audit_append_only"() RETURNS trigger LANGUAGE plpgsql AS E'
BEGIN
  IF TG_OP = ''DELETE'' AND current_setting(''trellis.audit_retention'', true) = ''sweep'' THEN
    IF OLD.at < current_setting(''trellis.audit_cutoff'', true)::timestamptz
      AND current_setting(''trellis.audit_cutoff'', true)::timestamptz <= now() - interval ''1 day'' + interval ''1 minute'' THEN
      RETURN OLD\073
    END IF\073
  END IF\073
  RAISE EXCEPTION ''The audit log is append-only: % of an entry is refused'', TG_OP USING ERRCODE = ''insufficient_privilege''\073
END
';

CREATE TRIGGER "audit_entries_append_only" BEFORE UPDATE OR DELETE ON "audit_entries"
  FOR EACH ROW EXECUTE FUNCTION "trellis_audit_append_only"();
CREATE TRIGGER "audit_entries_no_truncate" BEFORE TRUNCATE ON "audit_entries"
  FOR EACH STATEMENT EXECUTE FUNCTION "trellis_audit_append_only"();
