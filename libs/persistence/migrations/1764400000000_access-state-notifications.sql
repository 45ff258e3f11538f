-- Up Migration
-- Every committed change to what an access token is checked against is announced on the channel
-- sg_access_state (libs/persistence access-state-changes.ts): replicas that listen drop their cached
-- entry at once and may cache the rest far longer (libs/auth AccessStateTrust). Triggers, not the
-- application's statements: a change made by any path (an admin's SQL, another service) is heard.
-- Payloads: 'account:<user id>' (token version changed, account deleted), 'session:<family id>'
-- (a refresh-token family revoked), 'all' (either table truncated: a database reset). NOTIFY folds
-- identical payloads of one transaction into one.
CREATE FUNCTION sg_notify_access_state() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_LEVEL = 'STATEMENT' THEN
    PERFORM pg_notify('sg_access_state', 'all');
  ELSIF TG_TABLE_NAME = 'users' THEN
    PERFORM pg_notify('sg_access_state', 'account:' || OLD.id);
  ELSE
    PERFORM pg_notify('sg_access_state', 'session:' || NEW.family_id);
  END IF;
  RETURN NULL;
END
$$;

CREATE TRIGGER users_token_version_notify AFTER UPDATE OF token_version ON users
  FOR EACH ROW WHEN (OLD.token_version IS DISTINCT FROM NEW.token_version)
  EXECUTE FUNCTION sg_notify_access_state();
CREATE TRIGGER users_deleted_notify AFTER DELETE ON users
  FOR EACH ROW EXECUTE FUNCTION sg_notify_access_state();
CREATE TRIGGER refresh_tokens_revoked_notify AFTER UPDATE OF revoked_at ON refresh_tokens
  FOR EACH ROW WHEN (OLD.revoked_at IS NULL AND NEW.revoked_at IS NOT NULL)
  EXECUTE FUNCTION sg_notify_access_state();
CREATE TRIGGER users_truncated_notify AFTER TRUNCATE ON users
  FOR EACH STATEMENT EXECUTE FUNCTION sg_notify_access_state();
CREATE TRIGGER refresh_tokens_truncated_notify AFTER TRUNCATE ON refresh_tokens
  FOR EACH STATEMENT EXECUTE FUNCTION sg_notify_access_state();

-- Down Migration
DROP TRIGGER refresh_tokens_truncated_notify ON refresh_tokens;
DROP TRIGGER users_truncated_notify ON users;
DROP TRIGGER refresh_tokens_revoked_notify ON refresh_tokens;
DROP TRIGGER users_deleted_notify ON users;
DROP TRIGGER users_token_version_notify ON users;
DROP FUNCTION sg_notify_access_state();
