-- Up Migration
-- Refresh-token families (rotation with reuse detection), a token version
-- per account (role, email or password changes outdate access tokens), hashed enrolment keys.

-- Every access token carries the version it was issued at; the guard refuses older ones.
ALTER TABLE users ADD COLUMN token_version integer NOT NULL DEFAULT 0;

-- One family per login; a refresh token is used once (used_at) and replaced by the next one of
-- its family. Presenting a used or revoked token again revokes the family.
ALTER TABLE refresh_tokens ADD COLUMN family_id uuid, ADD COLUMN used_at timestamptz;
UPDATE refresh_tokens SET family_id = jti;
ALTER TABLE refresh_tokens ALTER COLUMN family_id SET NOT NULL;
CREATE INDEX refresh_tokens_family_idx ON refresh_tokens (family_id);

-- Enrolment keys are stored hashed (scrypt, written by the API). Keys already stored in clear
-- become 'sha256$<hex>', which the API still verifies, so existing sessions keep their key.
ALTER TABLE business_sessions RENAME COLUMN enrolment_key TO enrolment_key_hash;
UPDATE business_sessions
   SET enrolment_key_hash = 'sha256$' || encode(sha256(convert_to(enrolment_key_hash, 'UTF8')), 'hex')
 WHERE enrolment_key_hash NOT LIKE 'scrypt$%';

-- Down Migration
-- Hashed enrolment keys cannot be turned back into keys: sessions keep the hash as their key
-- text, and a teacher sets a new key.
ALTER TABLE business_sessions RENAME COLUMN enrolment_key_hash TO enrolment_key;
DROP INDEX refresh_tokens_family_idx;
ALTER TABLE refresh_tokens DROP COLUMN used_at, DROP COLUMN family_id;
ALTER TABLE users DROP COLUMN token_version;
