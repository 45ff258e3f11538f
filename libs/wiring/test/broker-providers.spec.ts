/**
 * The shared broker wiring in a real Nest application context, with stand-in parts (no
 * broker): what is injected where, GRADING_DISPATCH, and the lifecycle calls.
 */
import { Global, Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { ARCHIVE_STORE, GRADING_DISPATCH, GradingWorker, PRODUCTION_REPOSITORY, type GradingDispatch } from '@shellgrade/domain';
import { dispatchTimingsOf } from '@shellgrade/dispatch';
import { brokerProviders, type BrokerParts } from '../src/dispatch/broker-providers';
import { portsModule } from '../src/ports-module';

class FakeConnection {}
class FakeDispatch implements GradingDispatch {
  constructor(
    readonly connection: FakeConnection,
    readonly productions: unknown,
    readonly archives: unknown,
  ) {}
  dispatch(): never {
    throw new Error('not used');
  }
}
class FakeConsumer {
  constructor(
    readonly connection: FakeConnection,
    readonly grading: unknown,
    readonly productions: unknown,
  ) {}
}

const productions = { name: 'productions' };
const archives = { name: 'archives' };
const grading = { name: 'grading' };

@Global()
@Module({
  providers: [
    { provide: PRODUCTION_REPOSITORY, useValue: productions },
    { provide: ARCHIVE_STORE, useValue: archives },
    { provide: GradingWorker, useValue: grading },
  ],
  exports: [PRODUCTION_REPOSITORY, ARCHIVE_STORE, GradingWorker],
})
class DomainStandIns {}

type Parts = BrokerParts<FakeConnection, FakeDispatch, FakeConsumer>;

async function boot(consume: boolean) {
  const calls: string[] = [];
  const seen: { started?: Parts; stopped?: Parts } = {};
  const broker = brokerProviders({
    name: 'fake',
    connection: FakeConnection,
    connect: () => new FakeConnection(),
    dispatch: FakeDispatch,
    createDispatch: (c, p, a) => new FakeDispatch(c, p, a),
    createConsumer: consume ? (c, g, p) => new FakeConsumer(c, g, p) : null,
    start: async (parts) => {
      calls.push('start');
      seen.started = parts;
    },
    stop: async (parts) => {
      calls.push('stop');
      seen.stopped = parts;
    },
  });
  @Module({ imports: [DomainStandIns, portsModule(broker)] })
  class Root {}
  const app = await NestFactory.createApplicationContext(Root, { logger: false });
  await app.init();
  return { app, calls, seen };
}

describe('brokerProviders', () => {
  it('injects one connection and the domain ports, exposes GRADING_DISPATCH, starts on bootstrap and stops on close', async () => {
    const { app, calls, seen } = await boot(true);
    const dispatch = app.get(FakeDispatch);
    expect(app.get(GRADING_DISPATCH)).toBe(dispatch);
    expect(dispatch.connection).toBe(app.get(FakeConnection));
    expect(dispatch.productions).toBe(productions);
    expect(dispatch.archives).toBe(archives);
    expect(calls).toEqual(['start']);
    const consumer = seen.started?.consumer;
    expect(consumer).toBeInstanceOf(FakeConsumer);
    expect(consumer).toMatchObject({ connection: dispatch.connection, grading, productions });
    expect(seen.started).toEqual({ connection: dispatch.connection, dispatch, consumer });
    await app.close();
    expect(calls).toEqual(['start', 'stop']);
    expect(seen.stopped).toBe(seen.started);
  });

  it('has no consumer when the process does not consume', async () => {
    const { app, calls, seen } = await boot(false);
    expect(seen.started?.consumer).toBeNull();
    await app.close();
    expect(calls).toEqual(['start', 'stop']);
  });
});

describe('dispatchTimingsOf', () => {
  it('maps the broker settings to the publisher settings', () => {
    const broker = { queue: 'q', prefetch: 1, queueBound: 5, retries: 3, retryDelayMs: 1, replyTimeoutMs: 11, publishTimeoutMs: 22, retryAfterS: 3, consume: true };
    expect(dispatchTimingsOf(broker, 'async')).toEqual({ reply: 'async', replyTimeoutMs: 11, publishTimeoutMs: 22, retryAfterSeconds: 3 });
  });
});
