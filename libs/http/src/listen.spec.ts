import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { Module } from '@nestjs/common';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { Test } from '@nestjs/testing';
import { configureHttpApp, listen } from './bootstrap';
import { testAppOptions } from './testing/app-options';

@Module({})
class EmptyModule {}

/** The backlog the kernel gave a listening socket: `ss` shows it as Send-Q of a LISTEN line. */
function kernelBacklogOf(port: number): number {
  const line = execFileSync('ss', ['-Hltn', `sport = :${port}`], { encoding: 'utf8' }).trim();
  const [, , sendQ] = line.split(/\s+/);
  return Number(sendQ);
}

describe('listen', () => {
  let nest: NestExpressApplication | undefined;
  afterEach(() => nest?.close());

  it("asks the kernel for the given backlog (not node's 511), as far as net.core.somaxconn allows", async () => {
    const moduleRef = await Test.createTestingModule({ imports: [EmptyModule] }).compile();
    nest = moduleRef.createNestApplication<NestExpressApplication>({ logger: false });
    configureHttpApp(nest, testAppOptions());
    await listen(nest, { host: '127.0.0.1', port: 0, backlog: 1000 }, 'listen-test');
    const { port } = nest.getHttpServer().address() as AddressInfo;
    const somaxconn = Number(readFileSync('/proc/sys/net/core/somaxconn', 'utf8'));
    expect(kernelBacklogOf(port)).toBe(Math.min(1000, somaxconn));
  });
});
