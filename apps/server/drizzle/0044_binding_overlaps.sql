-- One UID's bindings never overlap in time (docs/decisions.md, "A binding never starts before the UID's
-- previous binding ended"): since then a bind moves its start up to the latest end of the UID's other
-- bindings. Bindings stored before could start before the previous holder's binding ended (a bind on an
-- instance whose clock was behind the deleting one's), and their holder saw the deleted holder's
-- history. This repairs them by the same rule: a binding that starts before the latest end of an
-- earlier binding of its UID (earlier: a lower id, inserted first; the start is the time in question)
-- starts at that end. A binding that had also ended by then (it lay wholly inside the earlier one)
-- ends there too: it held the UID for no time, where ending before its start is no binding at all.
-- Moving such an end never changes the latest end a later binding is compared with (it moves up to an
-- end already among its predecessors), so one statement repairs every UID and a second run finds
-- nothing. Each moved binding gets an audit entry by this migration with its times before and after.
-- Set-based: one window over the bindings (about 1.5 s at a million on PostgreSQL), then the few moved.
WITH "old" AS (
  SELECT "id", "bound_at", "unbound_at", "ended" FROM (
    SELECT "id", "bound_at", "unbound_at",
      max("unbound_at") OVER (
        PARTITION BY "plat_id", "uid" ORDER BY "id" ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING
      ) AS "ended"
    FROM "exchange_bindings"
  ) AS "w"
  WHERE "bound_at" < "ended"
), "moved" AS (
  UPDATE "exchange_bindings" AS "b"
  SET "bound_at" = "o"."ended",
    "unbound_at" = CASE WHEN "b"."unbound_at" < "o"."ended" THEN "o"."ended" ELSE "b"."unbound_at" END
  FROM "old" AS "o"
  WHERE "b"."id" = "o"."id"
  RETURNING "b"."id", "b"."user_id", "b"."plat_id", "b"."uid", "b"."bound_at", "b"."unbound_at",
    "o"."bound_at" AS "old_bound_at", "o"."unbound_at" AS "old_unbound_at"
)
INSERT INTO "audit_log" ("at", "actor_id", "actor", "action", "target", "before", "after")
SELECT now(), NULL, 'migration:binding_overlaps', 'binding.moveStart', 'binding:' || "plat_id" || ':' || "uid",
  jsonb_build_object('bindingId', "id", 'userId', "user_id",
    'boundAt', to_char("old_bound_at" AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
    'unboundAt', to_char("old_unbound_at" AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')),
  jsonb_build_object('bindingId', "id", 'userId', "user_id",
    'boundAt', to_char("bound_at" AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
    'unboundAt', to_char("unbound_at" AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'))
FROM "moved" ORDER BY "id";
