-- Up Migration
-- What every submission and every login writes, made cheaper (npm run bench -- pg-statements).
-- A production's status on its way to the grader ('received' → 'grading', or 'queued') is an
-- update PostgreSQL makes in place, without a new entry in each of the table's indexes (a HOT
-- update), only when no index involves the column. The pending index said "not final" by the
-- status; it says it by graded_at, which every final outcome sets and nothing else does.
DROP INDEX exercise_productions_pending_idx;
CREATE INDEX exercise_productions_pending_idx ON exercise_productions (created_at) WHERE graded_at IS NULL;

-- Every login and every refresh inserts a token; only housekeeping (db reset) reads by expiry,
-- and a sequential scan serves it.
DROP INDEX refresh_tokens_expires_idx;

-- Down Migration
CREATE INDEX refresh_tokens_expires_idx ON refresh_tokens (expires_at);
DROP INDEX exercise_productions_pending_idx;
CREATE INDEX exercise_productions_pending_idx ON exercise_productions (created_at)
  WHERE status NOT IN ('graded', 'failed');
