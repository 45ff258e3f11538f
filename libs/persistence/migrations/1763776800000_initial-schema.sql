-- Up Migration
-- The ShellOnYou entities (docs/design.md, Domain). Integer identity keys: they appear in URLs and in the
-- original SPA's JSON (ex_id, ps_id, ep_id).

CREATE TABLE users (
  id            integer GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  email         text        NOT NULL UNIQUE CHECK (email = lower(email)),
  password_hash text        NOT NULL,
  firstname     text        NOT NULL DEFAULT '',
  lastname      text        NOT NULL DEFAULT '',
  role          text        NOT NULL CHECK (role IN ('admin', 'teacher', 'student')),
  created_at    timestamptz NOT NULL DEFAULT now()
);

-- Refresh tokens: the revocation store every replica reads (logout revokes one session only).
CREATE TABLE refresh_tokens (
  jti        uuid        PRIMARY KEY,
  user_id    integer     NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  expires_at timestamptz NOT NULL,
  revoked_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX refresh_tokens_user_idx ON refresh_tokens (user_id);
CREATE INDEX refresh_tokens_expires_idx ON refresh_tokens (expires_at);

CREATE TABLE exercises (
  id               integer GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  slug             text        NOT NULL UNIQUE,
  name             text        NOT NULL,
  statement_html   text        NOT NULL,
  question_archive bytea       NOT NULL,
  grader_script    text        NOT NULL,
  state            text        NOT NULL DEFAULT 'draft' CHECK (state IN ('draft', 'published', 'archived')),
  locale           text        NOT NULL DEFAULT 'en',
  skills           text[]      NOT NULL DEFAULT '{}',
  author_id        integer     REFERENCES users (id) ON DELETE SET NULL,
  created_at       timestamptz NOT NULL DEFAULT now(),
  updated_at       timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX exercises_state_idx ON exercises (state);

CREATE TABLE sequences (
  id          integer GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  name        text        NOT NULL UNIQUE,
  description text        NOT NULL DEFAULT '',
  created_at  timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE sequence_exercises (
  sequence_id integer NOT NULL REFERENCES sequences (id) ON DELETE CASCADE,
  exercise_id integer NOT NULL REFERENCES exercises (id) ON DELETE CASCADE,
  position    integer NOT NULL CHECK (position >= 0),
  PRIMARY KEY (sequence_id, position),
  UNIQUE (sequence_id, exercise_id)
);
CREATE INDEX sequence_exercises_exercise_idx ON sequence_exercises (exercise_id);

CREATE TABLE business_sessions (
  id            integer GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  name          text        NOT NULL UNIQUE,
  sequence_id   integer     NOT NULL REFERENCES sequences (id) ON DELETE RESTRICT,
  starts_at     timestamptz NOT NULL,
  ends_at       timestamptz NOT NULL,
  enrolment_key text        NOT NULL,
  teacher_id    integer     REFERENCES users (id) ON DELETE SET NULL,
  created_at    timestamptz NOT NULL DEFAULT now(),
  CHECK (ends_at >= starts_at)
);
CREATE INDEX business_sessions_sequence_idx ON business_sessions (sequence_id);
CREATE INDEX business_sessions_teacher_idx ON business_sessions (teacher_id);

CREATE TABLE enrolments (
  session_id  integer     NOT NULL REFERENCES business_sessions (id) ON DELETE CASCADE,
  user_id     integer     NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  enrolled_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (session_id, user_id)
);
CREATE INDEX enrolments_user_idx ON enrolments (user_id);

-- One personalised statement per student, session and exercise ("ps_id" in the SPA).
-- Sessions and exercises with statements cannot be deleted (NO ACTION): no silent data loss.
CREATE TABLE student_statements (
  id               integer GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  user_id          integer     NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  session_id       integer     NOT NULL REFERENCES business_sessions (id),
  exercise_id      integer     NOT NULL REFERENCES exercises (id),
  statement_html   text        NOT NULL,
  question_archive bytea       NOT NULL,
  deadline         timestamptz,
  created_at       timestamptz NOT NULL DEFAULT now(),
  UNIQUE (user_id, session_id, exercise_id)
);
CREATE INDEX student_statements_session_idx ON student_statements (session_id);
CREATE INDEX student_statements_exercise_idx ON student_statements (exercise_id);

-- Submissions. The archive lives either inline (bytea, storage=postgres) or in an object store
-- (archive_key, storage=minio); submission_key makes broker redelivery idempotent.
-- Deleting an exercise or statement students worked on is refused (409) rather than cascading
-- into their productions; deleting a user removes that user's rows.
CREATE TABLE exercise_productions (
  id             integer GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  user_id        integer     NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  exercise_id    integer     NOT NULL REFERENCES exercises (id),
  statement_id   integer     NOT NULL REFERENCES student_statements (id),
  status         text        NOT NULL CHECK (status IN ('received', 'queued', 'grading', 'graded', 'failed')),
  grade          smallint    CHECK (grade BETWEEN 0 AND 100),
  comment        jsonb       NOT NULL DEFAULT '[]'::jsonb,
  failure_reason text,
  submission_key text        NOT NULL UNIQUE,
  archive_size   integer     NOT NULL CHECK (archive_size >= 0),
  archive_sha256 char(64)    NOT NULL,
  archive        bytea,
  archive_key    text,
  created_at     timestamptz NOT NULL DEFAULT now(),
  graded_at      timestamptz
);
CREATE INDEX exercise_productions_user_idx ON exercise_productions (user_id, created_at DESC);
CREATE INDEX exercise_productions_exercise_idx ON exercise_productions (exercise_id);
CREATE INDEX exercise_productions_statement_idx ON exercise_productions (statement_id);
-- Small partial index: the productions still waiting for a grade (async variants).
CREATE INDEX exercise_productions_pending_idx ON exercise_productions (created_at)
  WHERE status NOT IN ('graded', 'failed');

-- Down Migration
DROP TABLE exercise_productions;
DROP TABLE student_statements;
DROP TABLE enrolments;
DROP TABLE business_sessions;
DROP TABLE sequence_exercises;
DROP TABLE sequences;
DROP TABLE exercises;
DROP TABLE refresh_tokens;
DROP TABLE users;
