/**
 * gateway.pattern offloading: what the gateway needs to check a login itself — the token secret
 * (refused if it is a published default beyond loopback, as in every process that checks tokens)
 * and the accounts' token versions and login sessions, read from PostgreSQL through the same caches the services use.
 */
import { AccessTokenAuthenticator, IdentityAssertions, SessionFamilies, TokenService, TokenVersions } from '@shellgrade/auth';
import type { IdentityOffloading } from '@shellgrade/gateway';
import { PgRefreshTokenRepository, PgUserRepository, poolOf } from '@shellgrade/persistence';
import type { ServiceConfig } from '@shellgrade/variant';
import { authConfigOf, databaseSettingsOf } from './service-settings';

export interface GatewayOffloading extends IdentityOffloading {
  /** Ends the gateway's database pool. */
  close(): Promise<void>;
}

/** undefined unless the spec's gateway offloads authentication. */
export function gatewayOffloadingOf(cfg: ServiceConfig): GatewayOffloading | undefined {
  if (cfg.spec.gateway.pattern !== 'offloading') return undefined;
  const auth = authConfigOf(cfg);
  const pool = poolOf(databaseSettingsOf(cfg));
  const refreshTokens = new PgRefreshTokenRepository(pool);
  const tokens = new TokenService({ secret: auth.jwtSecret, accessTtlSeconds: auth.accessTtlSeconds, refreshTtlSeconds: auth.refreshTtlSeconds });
  return {
    authenticator: new AccessTokenAuthenticator(tokens, new TokenVersions(new PgUserRepository(pool), auth), new SessionFamilies(refreshTokens, auth), refreshTokens),
    assertions: new IdentityAssertions(auth.jwtSecret),
    close: () => pool.end(),
  };
}
