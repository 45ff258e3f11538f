import { type DynamicModule, Global, Injectable, Module, type OnApplicationShutdown } from '@nestjs/common';
import { AUTH_CONFIG, type AuthConfig } from './auth.config';
import { AuthGuard } from './auth.guard';
import { AuthService } from './auth.service';
import { RateLimits } from './rate-limits';
import { TokenVersions } from './token-versions';
import { AccessStateTrust } from './access-state-trust';
import { AccessStateWatcher } from './access-state-watcher';
import { SessionFamilies } from './session-families';
import { TokenService } from './jwt-tokens';
import { ACCESS_STATE_READER, ATTEMPT_LIMITS, LOGIN_SESSIONS, SECRET_HASHING, type AccessStateReader } from './ports';
import { KdfSecretHashing } from './secret-hashing';
import { IdentityAssertions } from './identity-assertion';
import { AccessTokenAuthenticator, GatewayAssertionAuthenticator, REQUEST_AUTHENTICATOR, type RequestAuthenticator } from './request-authenticators';

/**
 * The login sessions (AuthService, bound to the LOGIN_SESSIONS port that libs/api's AuthApiModule
 * routes to), the attempt limits (ATTEMPT_LIMITS) and secret hashing (SECRET_HASHING) controllers use, plus TokenService and AuthGuard for every other module (global, so
 * @UseGuards(AuthGuard) resolves in any controller). No routes: the HTTP side is libs/api's.
 * Needs CREDENTIAL_STORE and REFRESH_TOKEN_STORE from the process's ports (libs/wiring binds
 * libs/persistence's adapters).
 */
@Injectable()
class RateLimitsCloser implements OnApplicationShutdown {
  constructor(private readonly limits: RateLimits) {}
  async onApplicationShutdown(): Promise<void> {
    await this.limits.close();
  }
}

@Global()
@Module({})
export class AuthModule {
  static forRoot(authConfig: AuthConfig): DynamicModule {
    return {
      module: AuthModule,
      providers: [
        { provide: AUTH_CONFIG, useValue: authConfig },
        {
          provide: TokenService,
          useValue: new TokenService({
            secret: authConfig.jwtSecret,
            accessTtlSeconds: authConfig.accessTtlSeconds,
            refreshTtlSeconds: authConfig.refreshTtlSeconds,
          }),
        },
        { provide: RateLimits, useFactory: () => new RateLimits(authConfig.rateLimits) },
        { provide: ATTEMPT_LIMITS, useExisting: RateLimits },
        { provide: SECRET_HASHING, useValue: new KdfSecretHashing(authConfig.kdfCost) },
        RateLimitsCloser,
        // One trust for both caches; the watcher feeds it when the process has ACCESS_STATE_CHANGES.
        { provide: AccessStateTrust, useValue: new AccessStateTrust(authConfig) },
        TokenVersions,
        SessionFamilies,
        AccessStateWatcher,
        {
          provide: REQUEST_AUTHENTICATOR,
          // ACCESS_STATE_READER is optional: without it a first request reads version and session apart.
          inject: [TokenService, TokenVersions, SessionFamilies, { token: ACCESS_STATE_READER, optional: true }],
          useFactory: (tokens: TokenService, versions: TokenVersions, sessions: SessionFamilies, both?: AccessStateReader): RequestAuthenticator =>
            authConfig.identity === 'gateway-assertion'
              ? new GatewayAssertionAuthenticator(new IdentityAssertions(authConfig.jwtSecret))
              : new AccessTokenAuthenticator(tokens, versions, sessions, both),
        },
        AuthService,
        { provide: LOGIN_SESSIONS, useExisting: AuthService },
        AuthGuard,
      ],
      exports: [AUTH_CONFIG, TokenService, AuthService, LOGIN_SESSIONS, AuthGuard, TokenVersions, SessionFamilies, RateLimits, ATTEMPT_LIMITS, SECRET_HASHING, REQUEST_AUTHENTICATOR],
    };
  }
}
