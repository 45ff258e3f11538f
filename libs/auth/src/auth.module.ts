import { type DynamicModule, Global, Module } from '@nestjs/common';
import { AUTH_CONFIG, type AuthRuntimeConfig, authConfigFrom } from './auth.config';
import { AuthController, SessionHttp } from './auth.controller';
import { AuthGuard } from './auth.guard';
import { AuthService } from './auth.service';
import { TokenService } from './tokens';

/**
 * Login/verify/logout routes, plus TokenService and AuthGuard for every other module
 * (global, so @UseGuards(AuthGuard) resolves in any controller). Needs CREDENTIAL_STORE and
 * REFRESH_TOKEN_STORE from a global module (libs/persistence's PersistenceModule).
 */
@Global()
@Module({})
export class AuthModule {
  static forRoot(cfg: AuthRuntimeConfig, opts: { secureCookies?: boolean } = {}): DynamicModule {
    const authConfig = authConfigFrom(cfg, opts.secureCookies ?? false);
    return {
      module: AuthModule,
      controllers: [AuthController],
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
        AuthService,
        SessionHttp,
        AuthGuard,
      ],
      exports: [AUTH_CONFIG, TokenService, AuthService, SessionHttp, AuthGuard],
    };
  }
}
