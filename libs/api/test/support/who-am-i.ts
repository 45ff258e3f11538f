/** What the session tests of libs/api share: a guarded route that says who calls, and reading a set cookie. */
import { Controller, Get, UseGuards } from '@nestjs/common';
import { AuthGuard, CurrentUser, type AuthenticatedUser } from '@shellgrade/auth';
import type request from 'supertest';

/** Any guarded route: answers who the access token says it is. */
@Controller('api/whoami')
@UseGuards(AuthGuard)
export class WhoAmIController {
  @Get()
  whoami(@CurrentUser() me: AuthenticatedUser) {
    return { id: me.id, sid: me.sid };
  }
}

/** The value of one cookie the response set. */
export function cookie(res: request.Response, name: string): string {
  const all = ([] as string[]).concat(res.headers['set-cookie'] ?? []);
  const found = all.find((c) => c.startsWith(`${name}=`));
  if (!found) throw new Error(`no ${name} cookie in ${JSON.stringify(all)}`);
  return decodeURIComponent(found.slice(name.length + 1).split(';')[0]!);
}
