import { Body, Controller, Delete, Get, Param, Patch, Post, Put, Query, Req, Res, UseGuards } from '@nestjs/common';
import { ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { listOf, schemaRef, sessionUserBody } from '@shellgrade/api-contract';
import { ManageUsers } from '@shellgrade/application';
import { AuthGuard, type AuthenticatedUser, CurrentUser, Roles } from '@shellgrade/auth';
import { ZodPipe } from '@shellgrade/http';
import type { Request, Response } from 'express';
import { z } from 'zod';
import { clientOf, SessionHttp } from '../auth/session-http';
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

/** Users (rules: ManageUsers). */
@ApiTags('users')
@Controller(['api/user', 'api/users'])
export class UsersController {
  constructor(
    private readonly users: ManageUsers,
    private readonly sessions: SessionHttp,
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
    return (await this.users.list(me, q)).map(userView);
  }

  @Get('me')
  @UseGuards(AuthGuard)
  @ApiOkResponse({ schema: schemaRef(sessionUserBody) })
  async me(@CurrentUser() me: AuthenticatedUser) {
    return userView(await this.users.findOne(me, me.id));
  }

  @Get(':id')
  @UseGuards(AuthGuard)
  @ApiOkResponse({ schema: schemaRef(sessionUserBody) })
  async findOne(@CurrentUser() me: AuthenticatedUser, @Param('id', new ZodPipe(idParam)) id: number) {
    return userView(await this.users.findOne(me, id));
  }

  @Post()
  @UseGuards(AuthGuard)
  @Roles('admin')
  @ApiOperation({ summary: 'Create an account (admin)' })
  @ApiCreatedResponse({ schema: schemaRef(sessionUserBody) })
  async create(@Body(new ZodPipe(newUserSchema)) body: z.infer<typeof newUserSchema>) {
    return userView(await this.users.create(body));
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
    const { current_password: currentPassword, ...fields } = body;
    const { user, ownSessionMoved } = await this.users.update(me, id, { ...fields, currentPassword }, clientOf(req));
    // Our own token version moved with the change: a new access cookie keeps this session working.
    if (ownSessionMoved) await this.sessions.reissueAccess(req, res, me.id, me.sid);
    return userView(user);
  }

  @Delete(':id')
  @UseGuards(AuthGuard)
  @Roles('admin')
  async remove(@CurrentUser() me: AuthenticatedUser, @Param('id', new ZodPipe(idParam)) id: number) {
    await this.users.remove(me, id);
    return { deleted: true, user_id: id };
  }
}
