// A stub of scenario R's HTTP contract for k6-level tests (no variant needed): login sets the
// session cookie, verify answers 200 with it and 401 without, logout clears it, preflights 204;
// the SPS is the test's to answer, and the login too if it wants.
import { writeFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';

export type SpsHandler = (req: IncomingMessage, res: ServerResponse, body: string) => void;

export interface ContractStub {
  server: Server;
  baseUrl: string;
  /** A two-student users.csv in `dir`, as the seeding writes it. */
  usersCsv: string;
}

/** Logs every student in (the session cookie), unless a test answers logins itself. */
const logIn: SpsHandler = (_req, res) => res.writeHead(200, { 'Set-Cookie': 'access_token=t; Path=/' }).end('{}');

export async function startContractStub(dir: string, sps: SpsHandler, login: SpsHandler = logIn): Promise<ContractStub> {
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      const session = (req.headers.cookie ?? '').includes('access_token=t');
      if (req.method === 'OPTIONS') return res.writeHead(204).end();
      if (req.url === '/api/user/login') return login(req, res, body);
      if (req.url === '/api/auth/verify') return res.writeHead(session ? 200 : 401).end('{}');
      if (req.url === '/api/exercise-production') return sps(req, res, body);
      if (req.url === '/api/user/logout') return res.writeHead(200, { 'Set-Cookie': 'access_token=; Path=/; Max-Age=0' }).end('{}');
      res.writeHead(404).end();
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const usersCsv = join(dir, 'users.csv');
  writeFileSync(usersCsv, 'email,password,user_id,ex_id,ps_id\na@x.test,pa,1,2,3\nb@x.test,pb,4,2,5\n');
  return { server, baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, usersCsv };
}

export const stopContractStub = (stub: ContractStub) => new Promise<void>((r) => stub.server.close(() => r()));
