-- More member lists kept per process (issue 14; docs/decisions.md, "pointsHistory and signHistory
-- kept per member"): signHistory reads only `check_ins` (0051 notifies every change); pointsHistory
-- reads `points_entries` (0051 notifies an entry added; 0002 refuses the rest) and, for a task entry,
-- its task definition's kind (or none when the definition is gone). A definition added, removed,
-- renumbered or given another kind changes the pages of every member who was paid for it: operators
-- and seeds do this rarely, so every instance drops everything ('*').
CREATE OR REPLACE FUNCTION task_definitions_notify_members() RETURNS trigger AS $$
BEGIN
  IF EXISTS (
    SELECT 1 FROM old_rows o FULL JOIN new_rows n ON n.id = o.id
      WHERE o.id IS NULL OR n.id IS NULL OR n.kind IS DISTINCT FROM o.kind
  ) THEN
    PERFORM pg_notify('elex_member_changed', '*');
  END IF;
  RETURN NULL;
END;
$$ LANGUAGE plpgsql;--> statement-breakpoint
CREATE TRIGGER task_definitions_notify_updated AFTER UPDATE ON task_definitions
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION task_definitions_notify_members();--> statement-breakpoint
CREATE TRIGGER task_definitions_notify_inserted AFTER INSERT ON task_definitions
  FOR EACH STATEMENT EXECUTE FUNCTION elex_notify_all_members();--> statement-breakpoint
CREATE TRIGGER task_definitions_notify_deleted AFTER DELETE ON task_definitions
  FOR EACH STATEMENT EXECUTE FUNCTION elex_notify_all_members();--> statement-breakpoint
CREATE TRIGGER task_definitions_notify_truncated AFTER TRUNCATE ON task_definitions
  FOR EACH STATEMENT EXECUTE FUNCTION elex_notify_all_members();
