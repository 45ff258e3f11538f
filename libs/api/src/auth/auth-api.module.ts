import { Module } from '@nestjs/common';
import { AuthController } from './auth.controller';
import { SessionHttp } from './session-http';

/**
 * /api/user/login, /api/auth/verify, /api/user/logout, and SessionHttp for any controller whose
 * routes could shadow logout (UsersController). Needs the global AuthModule of libs/auth (the
 * LOGIN_SESSIONS port, AUTH_CONFIG); every service that logs users in imports both.
 */
@Module({ controllers: [AuthController], providers: [SessionHttp], exports: [SessionHttp] })
export class AuthApiModule {}
