-- Up Migration
-- The wait a student is told when a submission is queued or refused because the
-- grading queue is full. It counts the gradings finished over the last minute by graded_at (every
-- final outcome sets it); this partial index keeps that count off a scan of the whole table.
CREATE INDEX exercise_productions_finished_idx ON exercise_productions (graded_at)
  WHERE graded_at IS NOT NULL;

-- Down Migration
DROP INDEX exercise_productions_finished_idx;
