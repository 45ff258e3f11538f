import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { haproxyServersNotUp } from './health';

const CSV = `# pxname,svname,qcur,status,
fe_entry,FRONTEND,,OPEN,
be_exercise,sg-exercise-0,0,UP,
be_exercise,sg-exercise-1,0,DOWN,
be_exercise,BACKEND,0,UP,
be_leftover,sg-leftover-0,0,UP 1/2,
`;

describe('haproxyServersNotUp', () => {
  let server: Server;
  let url: string;
  let body = CSV;
  beforeAll(async () => {
    server = createServer((_req, res) => res.end(body));
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/stats;csv`;
  });
  afterAll(() => new Promise((r) => server.close(r)));

  it('lists the servers HAProxy does not count UP (a rising server counts as UP)', async () => {
    expect(await haproxyServersNotUp(url)).toEqual(['be_exercise/sg-exercise-1 DOWN']);
  });

  it('is empty once every server is UP, and null when the stats page is unreachable', async () => {
    body = CSV.replace('sg-exercise-1,0,DOWN', 'sg-exercise-1,0,UP');
    expect(await haproxyServersNotUp(url)).toEqual([]);
    expect(await haproxyServersNotUp('http://127.0.0.1:1/stats;csv', 500)).toBeNull();
  });
});
