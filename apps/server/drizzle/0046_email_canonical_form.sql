-- One mailbox, one account (red-team review of account security, 2026-11-30): the contract's e-mail
-- schema now writes an address in one canonical form (normalizeEmail: lower-cased, NFC, the domain
-- without one trailing dot and in punycode, a quoted local part refused). Accounts stored before were
-- kept as typed, so `a@example.com.`, `a@bücher.de` and `"a"@example.com` were accounts apart from
-- `a@example.com`, `a@xn--bcher-kva.de` and `a@example.com`. This writes each stored e-mail in the
-- canonical form, unless another account has that form or would get it (two accounts of one mailbox):
-- both are then left as they are, and so is a quoted local part that is not a plain word. Each change
-- and each account left gets an audit entry by this migration (ids and domains, not the addresses):
-- 'member.emailCanonical' and 'member.emailLeft' (after.reason 'sameMailbox' or 'quoted'), so the
-- operators see which members to sort out. A second run changes nothing and records nothing new.
-- The punycode (RFC 3492) and the IDNA mapping (NFKC, lower case, ideographic full stops) are done
-- here in SQL as the WHATWG URL parser does them for the names members type; the server also finds an
-- account stored in a form this could not convert (auth.service.ts, accountForms).
CREATE FUNCTION "elex_0046_punycode"("label" text) RETURNS text LANGUAGE plpgsql IMMUTABLE AS $$
DECLARE
  cps int[] := ARRAY(SELECT ascii(c) FROM regexp_split_to_table("label", '') WITH ORDINALITY AS t(c, i) ORDER BY i);
  len int := coalesce(array_length(cps, 1), 0);
  output text := '';
  n int := 128;
  delta int := 0;
  bias int := 72;
  b int;
  h int;
  m int;
  q int;
  k int;
  t int;
  d int;
  c int;
BEGIN
  FOREACH c IN ARRAY cps LOOP
    IF c < 128 THEN output := output || chr(c); END IF;
  END LOOP;
  b := length(output);
  h := b;
  IF b > 0 THEN output := output || '-'; END IF;
  WHILE h < len LOOP
    SELECT min(x) INTO m FROM unnest(cps) AS x WHERE x >= n;
    delta := delta + (m - n) * (h + 1);
    n := m;
    FOREACH c IN ARRAY cps LOOP
      IF c < n THEN delta := delta + 1; END IF;
      IF c = n THEN
        q := delta;
        k := 36;
        LOOP
          t := CASE WHEN k <= bias THEN 1 WHEN k >= bias + 26 THEN 26 ELSE k - bias END;
          EXIT WHEN q < t;
          d := t + (q - t) % (36 - t);
          output := output || chr(CASE WHEN d < 26 THEN 97 + d ELSE 22 + d END);
          q := (q - t) / (36 - t);
          k := k + 36;
        END LOOP;
        output := output || chr(CASE WHEN q < 26 THEN 97 + q ELSE 22 + q END);
        -- The bias adapts to the deltas seen (RFC 3492, section 6.1).
        d := CASE WHEN h = b THEN delta / 700 ELSE delta / 2 END;
        d := d + d / (h + 1);
        k := 0;
        WHILE d > 455 LOOP
          d := d / 35;
          k := k + 36;
        END LOOP;
        bias := k + (36 * d) / (d + 38);
        delta := 0;
        h := h + 1;
      END IF;
    END LOOP;
    delta := delta + 1;
    n := n + 1;
  END LOOP;
  RETURN output;
END
$$;--> statement-breakpoint
CREATE FUNCTION "elex_0046_canonical_email"("email" text) RETURNS text LANGUAGE plpgsql IMMUTABLE AS $$
DECLARE
  local text := substring("email" from '^(.*)@[^@]*$');
  domain text := substring("email" from '@([^@]*)$');
BEGIN
  IF local IS NULL THEN RETURN "email"; END IF;
  domain := regexp_replace(domain, '\.$', '');
  IF octet_length(domain) <> length(domain) THEN
    domain := translate(lower(normalize(domain, NFKC)), U&'\3002\FF0E\FF61', '...');
    SELECT string_agg(
      CASE WHEN octet_length(part) <> length(part) THEN 'xn--' || "elex_0046_punycode"(part) ELSE part END,
      '.' ORDER BY i)
      INTO domain
      FROM regexp_split_to_table(domain, '\.') WITH ORDINALITY AS s(part, i);
  END IF;
  -- "word"@domain is word@domain; a quoted local part that is not a plain word stays (and is listed).
  IF local ~ '^"[^"\\@.\s(),:;<>\[\]]+(\.[^"\\@.\s(),:;<>\[\]]+)*"$' THEN
    local := substring(local from 2 for length(local) - 2);
  END IF;
  RETURN local || '@' || domain;
END
$$;--> statement-breakpoint
WITH "stored" AS (
  SELECT "id", "email", "elex_0046_canonical_email"("email") AS "canonical"
  FROM "users"
  WHERE "email" IS NOT NULL AND ("email" LIKE '%.' OR "email" LIKE '%"%' OR octet_length("email") <> length("email"))
), "candidates" AS (
  SELECT "s".*,
    (SELECT array_agg("u"."id" ORDER BY "u"."id") FROM "users" AS "u"
      WHERE "u"."id" <> "s"."id" AND ("u"."email" = "s"."canonical"
        OR "u"."id" IN (SELECT "o"."id" FROM "stored" AS "o" WHERE "o"."canonical" = "s"."canonical"))) AS "same_mailbox"
  FROM "stored" AS "s"
  WHERE "s"."canonical" <> "s"."email" OR "s"."canonical" LIKE '%"%'
), "moved" AS (
  UPDATE "users" AS "u" SET "email" = "c"."canonical"
  FROM "candidates" AS "c"
  WHERE "u"."id" = "c"."id" AND "c"."same_mailbox" IS NULL AND "c"."canonical" NOT LIKE '%"%'
  RETURNING "u"."id", "c"."email" AS "old_email", "c"."canonical"
), "left" AS (
  SELECT "c"."id", "c"."email", "c"."same_mailbox",
    CASE WHEN "c"."same_mailbox" IS NOT NULL THEN 'sameMailbox' ELSE 'quoted' END AS "reason"
  FROM "candidates" AS "c"
  WHERE ("c"."same_mailbox" IS NOT NULL OR "c"."canonical" LIKE '%"%')
    AND NOT EXISTS (SELECT 1 FROM "audit_log" AS "a"
      WHERE "a"."action" = 'member.emailLeft' AND "a"."target" = 'user:' || "c"."id")
)
INSERT INTO "audit_log" ("at", "actor_id", "actor", "action", "target", "before", "after")
SELECT now(), NULL, 'migration:email_canonical_form', "action", 'user:' || "id", "before", "after" FROM (
  SELECT "id", 'member.emailCanonical' AS "action",
    jsonb_build_object('userId', "id", 'domain', substring("old_email" from '@([^@]*)$'),
      'quotedLocalPart', "old_email" LIKE '%"%@%') AS "before",
    jsonb_build_object('userId', "id", 'domain', substring("canonical" from '@([^@]*)$'),
      'quotedLocalPart', false) AS "after"
  FROM "moved"
  UNION ALL
  SELECT "id", 'member.emailLeft',
    jsonb_build_object('userId', "id", 'domain', substring("email" from '@([^@]*)$')),
    jsonb_build_object('userId', "id", 'reason', "reason", 'sameMailboxAs', to_jsonb(coalesce("same_mailbox", '{}'::bigint[])))
  FROM "left"
) AS "entries" ORDER BY "id", "action";--> statement-breakpoint
DROP FUNCTION "elex_0046_canonical_email"(text);--> statement-breakpoint
DROP FUNCTION "elex_0046_punycode"(text);
