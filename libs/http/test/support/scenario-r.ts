/**
 * Scenario R of paper 000 §IV as a test client (pauses removed): login, verify, SPS,
 * logout, verify-expecting-401, each preceded by its OPTIONS preflight.
 */
import { BrowserSession, spaSubmission } from './http-client';

export interface SeededUser {
  email: string;
  password: string;
  userId: number;
  exerciseId: number;
  statementId: number;
}

export interface ScenarioOutcome {
  statuses: number[];
  preflights: number[];
  spsMs: number;
  epId: number | null;
  grade: number | null;
}

export async function runScenarioR(baseUrl: string, user: SeededUser, archive: Buffer): Promise<ScenarioOutcome> {
  const s = new BrowserSession(baseUrl);
  const statuses: number[] = [];
  const preflights: number[] = [];
  const step = async (method: string, path: string, body?: unknown) => {
    preflights.push(await s.preflight(method, path));
    const reply = await s.request(method, path, body);
    statuses.push(reply.status);
    return reply;
  };
  const login = await step('POST', '/api/user/login', { email: user.email, password: user.password });
  if (login.status !== 200) return { statuses, preflights, spsMs: 0, epId: null, grade: null };
  await step('GET', '/api/auth/verify');
  const sps = await step('POST', '/api/exercise-production', spaSubmission(user.exerciseId, user.statementId, archive));
  await step('DELETE', '/api/user/logout');
  await step('GET', '/api/auth/verify');
  const body = sps.body as { ep_id?: number; grade?: number };
  return { statuses, preflights, spsMs: sps.ms, epId: body?.ep_id ?? null, grade: body?.grade ?? null };
}

export function readUsersCsv(text: string): SeededUser[] {
  const [header, ...lines] = text.trim().split('\n');
  const cols = header.split(',');
  const at = (name: string) => {
    const i = cols.indexOf(name);
    if (i < 0) throw new Error(`users CSV has no column ${name}: ${header}`);
    return i;
  };
  const [email, password, userId, exId, psId] = ['email', 'password', 'user_id', 'ex_id', 'ps_id'].map(at);
  return lines.map((line) => {
    const f = line.split(',');
    return { email: f[email], password: f[password], userId: Number(f[userId]), exerciseId: Number(f[exId]), statementId: Number(f[psId]) };
  });
}
