-- Custom SQL migration file, put your code below! --
-- A late reading now bears its conflict with the readings received before it, and a correction is late
-- only when the entry it corrects was (docs/PRODUCT.md#late-readings). The
-- verdicts this changes are those of vehicles with a repair stored more than 5 days (LATE_REPORT_MS)
-- after its recorded_at: they are cleared here, and judged again by the rules of this release right after
-- the migrations, with the vehicles stored before verdicts existed (judgeUnjudgedVehicles, in the seed).
UPDATE "repairs" SET "verdict" = 'no_verdict', "reasons" = '{}'::text[]
WHERE "kode_id" IN (SELECT "kode_id" FROM "repairs" WHERE "created_at" - "recorded_at" > interval '5 days');
