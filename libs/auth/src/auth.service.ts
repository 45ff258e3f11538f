import { Inject, Injectable } from '@nestjs/common';
import type { User } from '@shellgrade/domain';
import { hashPassword, verifyPassword } from './password';
import { CREDENTIAL_STORE, type CredentialStore, REFRESH_TOKEN_STORE, type RefreshTokenStore } from './ports';
import { TokenService, unauthenticated } from './tokens';
import { AUTH_CONFIG, type AuthConfig } from './auth.config';

export interface LoginResult {
  user: User;
  accessToken: string;
  refreshToken: string;
}

@Injectable()
export class AuthService {
  /** Verified when the email is unknown, so response time does not reveal which emails exist. */
  private decoyHash: Promise<string> | undefined;

  constructor(
    private readonly tokens: TokenService,
    @Inject(CREDENTIAL_STORE) private readonly credentials: CredentialStore,
    @Inject(REFRESH_TOKEN_STORE) private readonly refreshTokens: RefreshTokenStore,
    @Inject(AUTH_CONFIG) private readonly cfg: AuthConfig,
  ) {}

  /** A new session (one refresh-token row) per login: an account may be logged in many times. */
  async login(email: string, password: string): Promise<LoginResult> {
    const found = await this.credentials.findCredentials(email);
    if (!found) {
      this.decoyHash ??= hashPassword('decoy password', this.cfg.kdfCost);
      await verifyPassword(password, await this.decoyHash);
      throw unauthenticated('invalid email or password');
    }
    if (!(await verifyPassword(password, found.passwordHash))) throw unauthenticated('invalid email or password');
    const refresh = this.tokens.signRefresh(found.user.id);
    await this.refreshTokens.insert(refresh.jti, found.user.id, refresh.expiresAt);
    return { user: found.user, accessToken: this.tokens.signAccess(found.user), refreshToken: refresh.token };
  }

  /** A fresh access token while the refresh token is valid and its session not revoked. */
  async refresh(refreshToken: string | undefined): Promise<{ user: User; accessToken: string }> {
    if (!refreshToken) throw unauthenticated('no refresh token');
    const { userId, jti } = this.tokens.verifyRefresh(refreshToken);
    if (!(await this.refreshTokens.isActive(jti, userId))) throw unauthenticated('session revoked or expired');
    const user = await this.credentials.findById(userId);
    if (!user) throw unauthenticated('user no longer exists');
    return { user, accessToken: this.tokens.signAccess(user) };
  }

  /** Revokes the session of this refresh token; a missing or invalid token is not an error. */
  async logout(refreshToken: string | undefined): Promise<boolean> {
    if (!refreshToken) return false;
    try {
      const { jti } = this.tokens.verifyRefresh(refreshToken);
      return await this.refreshTokens.revoke(jti);
    } catch {
      return false;
    }
  }
}
