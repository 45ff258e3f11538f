/**
 * The HTTP side of login sessions: routes and cookies only. Every decision
 * (passwords, tokens, rotation, revocation) is the application's, reached through its port
 * LOGIN_SESSIONS (libs/auth ports.ts; AuthModule binds AuthService to it): this file names no
 * token, password or storage class.
 */
import { Controller, Delete, Get, HttpCode, Post, Req, Res } from '@nestjs/common';
import { ApiBody, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { schemaRef, sessionUserBody } from '@shellgrade/api-contract';
import { JsonBody, ZodPipe } from '@shellgrade/http';
import type { Request, Response } from 'express';
import { z } from 'zod';
import { SessionHttp } from './session-http';

const loginSchema = z.object({
  email: z.string().trim().min(3).max(320),
  password: z.string().min(1).max(1024),
});
type LoginBody = z.infer<typeof loginSchema>;

@ApiTags('auth')
@Controller('api')
export class AuthController {
  constructor(private readonly sessions: SessionHttp) {}

  @Post('user/login')
  @HttpCode(200)
  @ApiOperation({ summary: 'Log in: sets httpOnly access_token and refresh_token cookies' })
  @ApiBody({ schema: { properties: { email: { type: 'string' }, password: { type: 'string' } }, required: ['email', 'password'] } })
  @ApiOkResponse({ schema: schemaRef(sessionUserBody) })
  login(@JsonBody(new ZodPipe(loginSchema)) body: LoginBody, @Req() req: Request, @Res({ passthrough: true }) res: Response) {
    return this.sessions.login(body, req, res);
  }

  @Get('auth/verify')
  @ApiOperation({ summary: 'Rotates the refresh token (cookie or bearer) and sets a fresh access token; a reused refresh token revokes its login' })
  @ApiOkResponse({ schema: schemaRef(sessionUserBody) })
  verify(@Req() req: Request, @Res({ passthrough: true }) res: Response) {
    return this.sessions.verify(req, res);
  }

  @Delete('user/logout')
  @ApiOperation({ summary: 'Revokes this session (every replica) and clears the cookies' })
  logout(@Req() req: Request, @Res({ passthrough: true }) res: Response) {
    return this.sessions.logout(req, res);
  }
}
