import { Controller, Delete, Get, Param, Patch, Post, Put, Query, Req, Res, UseGuards } from '@nestjs/common';
import { ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { idParam, listOf, newUserRequest, schemaRef, sessionUserBody, usersQuery, userUpdateRequest } from '@shellgrade/api-contract';
import { ManageUsers } from '@shellgrade/application';
import { AuthGuard, type AuthenticatedUser, CurrentUser, Roles } from '@shellgrade/auth';
import { JsonBody, ZodPipe } from '@shellgrade/http';
import type { Request, Response } from 'express';
import type { z } from 'zod';
import { clientOf, SessionHttp } from '../auth/session-http';
import { userView } from './views';

type UserUpdate = z.infer<typeof userUpdateRequest>;

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
  async list(@CurrentUser() me: AuthenticatedUser, @Query(new ZodPipe(usersQuery)) q: z.infer<typeof usersQuery>) {
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
  async create(@JsonBody(new ZodPipe(newUserRequest)) body: z.infer<typeof newUserRequest>) {
    return userView(await this.users.create(body));
  }

  @Put(':id')
  @UseGuards(AuthGuard)
  @ApiOkResponse({ schema: schemaRef(sessionUserBody) })
  async replace(
    @CurrentUser() me: AuthenticatedUser,
    @Param('id', new ZodPipe(idParam)) id: number,
    @JsonBody(new ZodPipe(userUpdateRequest)) body: UserUpdate,
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
    @JsonBody(new ZodPipe(userUpdateRequest)) body: UserUpdate,
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
