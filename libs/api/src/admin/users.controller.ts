import { Body, Controller, Delete, Get, Inject, Param, Patch, Post, Put, Query, Req, Res, UseGuards } from '@nestjs/common';
import { ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { listOf, schemaRef, sessionUserBody } from '@shellgrade/api-contract';
import {
  AuthGuard,
  type AuthenticatedUser,
  CurrentUser,
  listOwner,
  LOGIN_SESSIONS,
  type LoginSessions,
  mayRead,
  Roles,
  SECRET_HASHING,
  type SecretHashing,
} from '@shellgrade/auth';
import { forbidden, notFound, USER_REPOSITORY, type UserPatch, type UserRepository } from '@shellgrade/domain';
import { ZodPipe } from '@shellgrade/http';
import type { Request, Response } from 'express';
import { z } from 'zod';
import { clientOf, SessionHttp } from '../auth/auth.controller';
import { idParam, nonEmpty, pageQuery, roleSchema } from './schemas';
import { userView } from './views';

const userFields = z.object({
  email: z.string().trim().toLowerCase().email().max(320),
  password: z.string().min(8).max(1024),
  firstname: z.string().max(200),
  lastname: z.string().max(200),
  role: roleSchema,
});
const newUserSchema = userFields
  .extend({ firstname: userFields.shape.firstname.default(''), lastname: userFields.shape.lastname.default(''), role: roleSchema.default('student') })
  .strict();
/** `current_password` is required when a user changes its own password. */
const userUpdateSchema = nonEmpty(userFields.extend({ current_password: z.string().min(1).max(1024) }));
type UserUpdate = z.infer<typeof userUpdateSchema>;
const listQuery = pageQuery.extend({ role: roleSchema.optional() });

/** Users: admins manage accounts; staff read them; a student reads and edits only itself. */
@ApiTags('users')
@Controller(['api/user', 'api/users'])
export class UsersController {
  constructor(
    @Inject(USER_REPOSITORY) private readonly users: UserRepository,
    private readonly sessions: SessionHttp,
    @Inject(LOGIN_SESSIONS) private readonly authService: LoginSessions,
    @Inject(SECRET_HASHING) private readonly secrets: SecretHashing,
  ) {}

  /**
   * Same handler as AuthController's: whichever module registers first serves
   * DELETE /api/user/logout, so `DELETE :id` below can never shadow it.
   */
  @Delete('logout')
  @ApiOperation({ summary: 'Log out (same as AuthController)' })
  logout(@Req() req: Request, @Res({ passthrough: true }) res: Response) {
    return this.sessions.logout(req, res);
  }

  @Get()
  @UseGuards(AuthGuard)
  @ApiOperation({ summary: 'Users (staff: all, filter by role; student: itself)' })
  @ApiOkResponse({ schema: listOf(sessionUserBody) })
  async list(@CurrentUser() me: AuthenticatedUser, @Query(new ZodPipe(listQuery)) q: z.infer<typeof listQuery>) {
    if (listOwner(me, undefined) !== undefined) return [userView(await this.get(me.id))];
    return (await this.users.list(q)).map(userView);
  }

  @Get('me')
  @UseGuards(AuthGuard)
  @ApiOkResponse({ schema: schemaRef(sessionUserBody) })
  async me(@CurrentUser() me: AuthenticatedUser) {
    return userView(await this.get(me.id));
  }

  @Get(':id')
  @UseGuards(AuthGuard)
  @ApiOkResponse({ schema: schemaRef(sessionUserBody) })
  async findOne(@CurrentUser() me: AuthenticatedUser, @Param('id', new ZodPipe(idParam)) id: number) {
    if (!mayRead(me, id)) throw notFound('user', id);
    return userView(await this.get(id));
  }

  @Post()
  @UseGuards(AuthGuard)
  @Roles('admin')
  @ApiOperation({ summary: 'Create an account (admin)' })
  @ApiCreatedResponse({ schema: schemaRef(sessionUserBody) })
  async create(@Body(new ZodPipe(newUserSchema)) body: z.infer<typeof newUserSchema>) {
    const { password, ...rest } = body;
    return userView(await this.users.create({ ...rest, passwordHash: await this.secrets.hashPassword(password) }));
  }

  @Put(':id')
  @UseGuards(AuthGuard)
  @ApiOkResponse({ schema: schemaRef(sessionUserBody) })
  async replace(
    @CurrentUser() me: AuthenticatedUser,
    @Param('id', new ZodPipe(idParam)) id: number,
    @Body(new ZodPipe(userUpdateSchema)) body: UserUpdate,
    @Req() req: Request,
    @Res({ passthrough: true }) res: Response,
  ) {
    return this.update(me, id, body, req, res);
  }

  @Patch(':id')
  @UseGuards(AuthGuard)
  @ApiOperation({
    summary: 'Update an account (admin: any field; a user: own names, and own password with current_password). A new password ends the other sessions.',
  })
  @ApiOkResponse({ schema: schemaRef(sessionUserBody) })
  async update(
    @CurrentUser() me: AuthenticatedUser,
    @Param('id', new ZodPipe(idParam)) id: number,
    @Body(new ZodPipe(userUpdateSchema)) body: UserUpdate,
    @Req() req: Request,
    @Res({ passthrough: true }) res: Response,
  ) {
    if (me.role !== 'admin') {
      if (id !== me.id) throw notFound('user', id);
      if (body.role !== undefined || body.email !== undefined) throw forbidden('only an admin may change role or email');
    }
    const { password, current_password: current, ...rest } = body;
    if (password !== undefined && id === me.id && !(current !== undefined && (await this.authService.checkPassword(me.email, current, clientOf(req))))) {
      throw forbidden('changing your password needs your current password (current_password), and it did not match');
    }
    const patch: UserPatch = { ...rest, ...(password ? { passwordHash: await this.secrets.hashPassword(password) } : {}) };
    const updated = await this.users.update(id, patch);
    if (!updated) throw notFound('user', id);
    if (password !== undefined) await this.authService.endOtherSessions(id, id === me.id ? me.sid : undefined);
    // Our own token version moved with the change: keep this session working.
    if (id === me.id) await this.sessions.reissueAccess(req, res, me.id, me.sid);
    return userView(updated);
  }

  @Delete(':id')
  @UseGuards(AuthGuard)
  @Roles('admin')
  async remove(@CurrentUser() me: AuthenticatedUser, @Param('id', new ZodPipe(idParam)) id: number) {
    if (id === me.id) throw forbidden('an admin cannot delete its own account');
    if (!(await this.users.delete(id))) throw notFound('user', id);
    return { deleted: true, user_id: id };
  }

  private async get(id: number) {
    const user = await this.users.findById(id);
    if (!user) throw notFound('user', id);
    return user;
  }
}
