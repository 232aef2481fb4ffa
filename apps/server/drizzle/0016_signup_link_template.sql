ALTER TABLE "exchanges" RENAME COLUMN "signup_url" TO "signup_url_template";--> statement-breakpoint
-- One referral code per partner (issue 11): the sign-up link becomes a template with `{code}` where
-- the code was, and every link is built from the template and the code. Only a link that holds its
-- code exactly once is converted (more would be a guess at which one is the code); any other keeps
-- its URL, and the server and the console report the partner as not ready until an operator fixes it.
UPDATE "exchanges"
SET "signup_url_template" = replace("signup_url_template", "referral_code", '{code}')
WHERE length("referral_code") > 0
  AND position('{code}' in "signup_url_template") = 0
  AND length("signup_url_template") - length(replace("signup_url_template", "referral_code", '')) = length("referral_code");
