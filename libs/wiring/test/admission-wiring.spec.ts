/**
 * The admission gates as the wiring binds them: the login gate is an injected
 * object (LOGIN_ADMISSION, one per process because Nest builds a provider once), not a module-level
 * variable, and SubmissionService is built here over the root's ports with its admission gate.
 */
import { Test } from '@nestjs/testing';
import { admitEverything, ARCHIVE_STORE, ARCHIVE_VALIDATOR, GRADING_DISPATCH, LOGIN_ADMISSION, PRODUCTION_REPOSITORY, SUBMISSION_ADMISSION, SUBMISSION_CONTEXT, SubmissionService, type LoginAdmission } from '@shellgrade/domain';
import { loadConnections, loadVariant, processConfigOf, type ServiceConfig, type VariantSpec } from '@shellgrade/variant';
import { loginAdmission, portsModule, submissions } from '../src';

/** naked-mon (a paper preset: admission off) with these admission bounds, on unless `enabled` says otherwise. */
function config(bounds: Partial<VariantSpec['admission']> = {}): ServiceConfig {
  const base = loadVariant('naked-mon');
  const spec: VariantSpec = { ...base, admission: { ...base.admission, enabled: true, ...bounds } };
  return { ...processConfigOf(spec, 'monolith', 0, { host: '127.0.0.1', port: 3000 }), connections: loadConnections({}) };
}

/** Ports of a root, as stubs: the context read never ends, so an admitted submission keeps its place. */
const submissionPorts = [
  { provide: SUBMISSION_CONTEXT, useValue: { load: () => new Promise(() => undefined) } },
  ...[ARCHIVE_VALIDATOR, PRODUCTION_REPOSITORY, ARCHIVE_STORE, GRADING_DISPATCH].map((token) => ({ provide: token, useValue: {} })),
];

describe('admission wiring', () => {
  it('binds one login gate per process when the spec bounds logins: the places it gives out are counted across every reader', async () => {
    const providers = loginAdmission(config({ maxLoginsInFlight: 1, maxLoginWaitS: 0.001 }));
    const moduleRef = await Test.createTestingModule({ imports: [portsModule(providers)] }).compile();
    const first = moduleRef.get<LoginAdmission>(LOGIN_ADMISSION);
    const second = moduleRef.get<LoginAdmission>(LOGIN_ADMISSION);
    expect(second).toBe(first);
    const ticket = first.enter();
    expect(() => second.enter()).toThrow(expect.objectContaining({ kind: 'unavailable' }));
    ticket.release();
    second.enter().release();
  });

  it('binds no login gate when the spec leaves logins unbounded (AuthService then admits every login)', () => {
    expect(loginAdmission(config())).toEqual([]);
  });

  it('binds neither gate when admission is off, whatever bounds are set beside it', async () => {
    const off = config({ enabled: false, maxSubmissionsInFlight: 1, maxWaitS: 0.001, maxLoginsInFlight: 1, maxLoginWaitS: 0.001, answerDeadlineS: 1 });
    expect(loginAdmission(off)).toEqual([]);
    const moduleRef = await Test.createTestingModule({ imports: [portsModule([...submissionPorts, ...submissions(off)])] }).compile();
    expect(moduleRef.get(SUBMISSION_ADMISSION)).toBe(admitEverything);
  });

  it('builds SubmissionService over the ports the root bound, with the spec admission as its gate', async () => {
    const moduleRef = await Test.createTestingModule({ imports: [portsModule([...submissionPorts, ...submissions(config({ maxSubmissionsInFlight: 1, maxWaitS: 0.001 }))])] }).compile();
    const service = moduleRef.get(SubmissionService);
    const cmd = { userId: 1, statementId: 1, exerciseId: 1, archive: Buffer.from('x'), submissionKey: 'k' };
    void service.submit(cmd); // admitted: holds the one place while its context is read
    await expect(service.submit(cmd)).rejects.toMatchObject({ kind: 'unavailable' });
  });
});
