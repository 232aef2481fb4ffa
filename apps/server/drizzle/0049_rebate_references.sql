-- The references of `rebates` checked once per statement (docs/decisions.md, "The references of
-- `rebates` checked once per statement"). The two foreign keys, `plat_id → exchanges.id` and
-- `journal_id → ledger_journals.id`, ran PostgreSQL's RI check once per stored row (a `select … for
-- key share` each), 9–18 % of storing the million-line import's records, which stores them in
-- set-based statements. Statement triggers over the distinct ids a statement names hold the same
-- guarantees, raising the same SQLSTATE (23503, foreign_key_violation) and naming the same constraints:
-- - a record names an exchange that exists, locked `for key share` as the key locked it, so an
--   exchange being deleted meanwhile waits for the record (then is refused below), and a record
--   stored while its exchange is being deleted waits for the delete (then is refused here);
-- - a record names no journal or one that exists; journals are never updated, deleted or truncated
--   (migration 0007), so nothing guards their side;
-- - an exchange a record names is neither deleted nor renumbered (`exchanges_keep_rebates`; the
--   natural key's index leads with `plat_id`, so the probe is one index descent). `TRUNCATE exchanges`
--   stays refused by the other tables' foreign keys and append-only guards.
ALTER TABLE "rebates" DROP CONSTRAINT "rebates_plat_id_exchanges_id_fk";
--> statement-breakpoint
ALTER TABLE "rebates" DROP CONSTRAINT "rebates_journal_id_ledger_journals_id_fk";
--> statement-breakpoint
CREATE OR REPLACE FUNCTION rebates_check_references() RETURNS trigger AS $$
DECLARE
  plats integer[];
  journals bigint[];
  locked integer;
  missing bigint;
BEGIN
  SELECT array_agg(DISTINCT plat_id), array_agg(DISTINCT journal_id) FILTER (WHERE journal_id IS NOT NULL)
    INTO plats, journals FROM new_rebates;
  IF plats IS NULL THEN
    RETURN NULL;
  END IF;
  -- In id order, as every writer locks exchanges; a row deleted meanwhile is not returned.
  SELECT count(*) INTO locked FROM (
    SELECT 1 FROM exchanges e WHERE e.id = ANY (plats) ORDER BY e.id FOR KEY SHARE OF e) l;
  IF locked < cardinality(plats) THEN
    SELECT p INTO missing FROM unnest(plats) p
      WHERE NOT EXISTS (SELECT 1 FROM exchanges e WHERE e.id = p) ORDER BY p LIMIT 1;
    RAISE EXCEPTION 'insert or update on table "rebates" violates foreign key constraint "rebates_plat_id_exchanges_id_fk"'
      USING ERRCODE = 'foreign_key_violation', CONSTRAINT = 'rebates_plat_id_exchanges_id_fk', TABLE = 'rebates',
        DETAIL = format('Key (plat_id)=(%s) is not present in table "exchanges".', missing);
  END IF;
  IF journals IS NOT NULL THEN
    SELECT j INTO missing FROM unnest(journals) j
      WHERE NOT EXISTS (SELECT 1 FROM ledger_journals l WHERE l.id = j) ORDER BY j LIMIT 1;
    IF FOUND THEN
      RAISE EXCEPTION 'insert or update on table "rebates" violates foreign key constraint "rebates_journal_id_ledger_journals_id_fk"'
        USING ERRCODE = 'foreign_key_violation', CONSTRAINT = 'rebates_journal_id_ledger_journals_id_fk',
          TABLE = 'rebates', DETAIL = format('Key (journal_id)=(%s) is not present in table "ledger_journals".', missing);
    END IF;
  END IF;
  RETURN NULL;
END;
$$ LANGUAGE plpgsql;
--> statement-breakpoint
CREATE TRIGGER rebates_references_insert AFTER INSERT ON rebates
  REFERENCING NEW TABLE AS new_rebates
  FOR EACH STATEMENT EXECUTE FUNCTION rebates_check_references();
--> statement-breakpoint
-- Settling writes `journal_id` on pending records (`plat_id` never changes: rebates_settle_once).
CREATE TRIGGER rebates_references_update AFTER UPDATE ON rebates
  REFERENCING NEW TABLE AS new_rebates
  FOR EACH STATEMENT EXECUTE FUNCTION rebates_check_references();
--> statement-breakpoint
CREATE OR REPLACE FUNCTION exchanges_keep_rebates() RETURNS trigger AS $$
BEGIN
  IF EXISTS (SELECT 1 FROM rebates r WHERE r.plat_id = OLD.id) THEN
    RAISE EXCEPTION 'update or delete on table "exchanges" violates foreign key constraint "rebates_plat_id_exchanges_id_fk" on table "rebates"'
      USING ERRCODE = 'foreign_key_violation', CONSTRAINT = 'rebates_plat_id_exchanges_id_fk', TABLE = 'exchanges',
        DETAIL = format('Key (id)=(%s) is still referenced from table "rebates".', OLD.id);
  END IF;
  IF TG_OP = 'DELETE' THEN
    RETURN OLD;
  END IF;
  RETURN NEW;
END;
$$ LANGUAGE plpgsql;
--> statement-breakpoint
CREATE TRIGGER exchanges_keep_rebates_delete BEFORE DELETE ON exchanges
  FOR EACH ROW EXECUTE FUNCTION exchanges_keep_rebates();
--> statement-breakpoint
CREATE TRIGGER exchanges_keep_rebates_renumber BEFORE UPDATE OF id ON exchanges
  FOR EACH ROW WHEN (OLD.id IS DISTINCT FROM NEW.id) EXECUTE FUNCTION exchanges_keep_rebates();
