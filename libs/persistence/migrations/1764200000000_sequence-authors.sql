-- Up Migration
-- A sequence belongs to the teacher who authored it, like an exercise; only its
-- author (or an admin) changes it. An existing sequence goes to the teacher of the first session
-- that follows it; one no session follows has no author (admins only).
ALTER TABLE sequences ADD COLUMN author_id integer REFERENCES users (id) ON DELETE SET NULL;
UPDATE sequences s
   SET author_id = (SELECT b.teacher_id FROM business_sessions b
                     WHERE b.sequence_id = s.id AND b.teacher_id IS NOT NULL ORDER BY b.id LIMIT 1);
CREATE INDEX sequences_author_idx ON sequences (author_id);

-- Down Migration
DROP INDEX sequences_author_idx;
ALTER TABLE sequences DROP COLUMN author_id;
