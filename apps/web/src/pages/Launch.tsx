/**
 * Launch a saved plan of the bench CLI (admins), started by the server as the shell command shown
 * (one at a time: a busy machine answers 409 with the run going on). On the standalone console
 * (npm run console) every plan and preset; on a console served by a variant, run or suite (a run
 * with a suite profile) of that variant only — matrix, findings and faults are offered with their
 * options and the command, and refused by the server with the reason (they would take down the
 * console that launched them). Below, the launches so far with their state, each opening its live
 * page.
 */
import { useEffect, useState, type FormEvent } from 'react';
import { Link, useNavigate } from 'react-router';
import { request } from '../api';
import { FINDINGS_MODES, launchArgs, type LaunchList, type LaunchPlan, type LaunchRequest } from '@shellgrade/console-contract';
import type { Launch as LaunchRecord } from '../lib/launch';
import { ErrorMessage, Loading, Page, Table, useLoad } from '../ui';

interface FormState {
  plan: LaunchPlan;
  preset: string;
  presets: string[];
  profile: string;
  runs: string;
  peak: string;
  saturation: string;
  mode: (typeof FINDINGS_MODES)[number];
  faults: string;
}

const num = (v: string): number | undefined => (v.trim() === '' ? undefined : Number(v));

/** The request of a plan: its own options only (the server refuses any other). */
function requestOf(f: FormState): LaunchRequest {
  switch (f.plan) {
    case 'run':
      return { plan: 'run', preset: f.preset, profile: f.profile, runs: num(f.runs), peak: num(f.peak) };
    case 'suite':
      return { plan: 'suite', preset: f.preset, profile: f.profile, peak: num(f.peak), saturation: f.profile.startsWith('soak') ? num(f.saturation) : undefined };
    case 'matrix':
      return { plan: 'matrix', presets: f.presets, profile: f.profile, runs: num(f.runs) };
    case 'findings':
      return { plan: 'findings', mode: f.mode };
    case 'faults':
      return { plan: 'faults', preset: f.preset, profile: f.profile, faults: f.faults.trim() || 'all' };
  }
}

export function Launch() {
  const launches = useLoad(() => request<LaunchList>('/ops/launches'), []);
  const presets = useLoad(() => request<{ presets: { name: string; error?: string }[] }>('/ops/presets').then((r) => r.presets.filter((p) => !p.error).map((p) => p.name)), []);
  const [form, setForm] = useState<FormState>({ plan: 'run', preset: 'naked-mon', presets: [], profile: 'smoke', runs: '', peak: '', saturation: '', mode: 'smoke', faults: 'all' });
  const [error, setError] = useState<unknown>();
  const navigate = useNavigate();
  const own = launches.data?.ownVariant ?? null;
  useEffect(() => {
    if (own) setForm((f) => ({ ...f, preset: own }));
  }, [own]);
  const offer = launches.data?.plans.find((p) => p.plan === form.plan);
  const set = (change: Partial<FormState>) => setForm((f) => ({ ...f, ...change }));

  function choosePlan(plan: LaunchPlan) {
    const profiles = launches.data?.plans.find((p) => p.plan === plan)?.profiles ?? [];
    set({ plan, profile: profiles.includes(form.profile) ? form.profile : (profiles.find((p) => p.endsWith('smoke')) ?? profiles[0] ?? '') });
  }

  async function launch(e: FormEvent) {
    e.preventDefault();
    setError(undefined);
    try {
      const r = await request<{ launch: LaunchRecord }>('/ops/launches', { method: 'POST', body: requestOf(form) });
      void navigate(`/console/launches/${encodeURIComponent(r.launch.id)}`);
    } catch (err) {
      setError(err);
      launches.reload();
    }
  }

  const plan = form.plan;
  const takesPreset = plan === 'run' || plan === 'suite' || plan === 'faults';
  return (
    <Page title="Launch a run">
      <ErrorMessage error={launches.error ?? presets.error} />
      {(launches.loading || presets.loading) && <Loading what="the presets and profiles" />}
      {launches.data && presets.data && offer && (
        <form className="card row" onSubmit={(e) => void launch(e)}>
          <label htmlFor="l-plan">Plan</label>
          <select id="l-plan" value={plan} onChange={(e) => choosePlan(e.target.value as LaunchPlan)}>
            {launches.data.plans.map((p) => (
              <option key={p.plan} value={p.plan}>
                {p.plan} ({p.description})
              </option>
            ))}
          </select>
          {takesPreset && (
            <>
              <label htmlFor="l-preset">Preset</label>
              <select id="l-preset" value={form.preset} onChange={(e) => set({ preset: e.target.value })}>
                {presets.data.map((p) => (
                  <option key={p}>{p}</option>
                ))}
              </select>
            </>
          )}
          {plan === 'matrix' && (
            <>
              <label htmlFor="l-presets">Presets</label>
              <select id="l-presets" multiple value={form.presets} onChange={(e) => set({ presets: [...e.target.selectedOptions].map((o) => o.value) })}>
                {presets.data.map((p) => (
                  <option key={p}>{p}</option>
                ))}
              </select>
            </>
          )}
          {plan !== 'findings' && (
            <>
              <label htmlFor="l-profile">Profile</label>
              <select id="l-profile" value={form.profile} onChange={(e) => set({ profile: e.target.value })}>
                {offer.profiles.map((p) => (
                  <option key={p}>{p}</option>
                ))}
              </select>
            </>
          )}
          {(plan === 'run' || plan === 'matrix') && (
            <>
              <label htmlFor="l-runs">Runs</label>
              <input id="l-runs" type="number" min={1} max={10} placeholder="the profile's" value={form.runs} onChange={(e) => set({ runs: e.target.value })} />
            </>
          )}
          {(plan === 'run' || plan === 'suite') && (
            <>
              <label htmlFor="l-peak">Peak (it/s)</label>
              <input id="l-peak" type="number" min={0} step="any" placeholder="the profile's" value={form.peak} onChange={(e) => set({ peak: e.target.value })} />
            </>
          )}
          {plan === 'suite' && form.profile.startsWith('soak') && (
            <>
              <label htmlFor="l-saturation">Saturation (it/s)</label>
              <input id="l-saturation" type="number" min={0} step="any" placeholder="the newest calibration's" value={form.saturation} onChange={(e) => set({ saturation: e.target.value })} />
            </>
          )}
          {plan === 'findings' && (
            <>
              <label htmlFor="l-mode">Mode</label>
              <select id="l-mode" value={form.mode} onChange={(e) => set({ mode: e.target.value as FormState['mode'] })}>
                {FINDINGS_MODES.map((m) => (
                  <option key={m}>{m}</option>
                ))}
              </select>
            </>
          )}
          {plan === 'faults' && (
            <>
              <label htmlFor="l-faults">Faults</label>
              <input id="l-faults" value={form.faults} onChange={(e) => set({ faults: e.target.value })} placeholder="all, or kind:target,..." />
            </>
          )}
          <button type="submit">Launch</button>
          <code className="command" data-testid="launch-command">
            npm run bench -- {launchArgs(requestOf(form)).join(' ')}
          </code>
          {offer.refused && (
            <p className="muted" data-testid="plan-refused">
              Not launched from the console: {offer.refused}. Run it from a shell with the command above.
            </p>
          )}
          {!offer.refused && own && <p className="muted">Only {own}, the variant serving this console, is launched from here: the launcher holds one variant at a time.</p>}
        </form>
      )}
      <ErrorMessage error={error} />
      {launches.data?.busy && (
        <p>
          Running now: <Link to={`/console/launches/${encodeURIComponent(launches.data.busy)}`}>{launches.data.busy}</Link>
        </p>
      )}
      {launches.data && launches.data.launches.length > 0 && (
        <Table testId="launches" columns={['Run', 'Plan', 'State', 'Command']}>
          {launches.data.launches.map((l) => (
            <tr key={l.id}>
              <th scope="row">
                <Link to={`/console/launches/${encodeURIComponent(l.id)}`}>{l.id}</Link>
              </th>
              <td>{l.plan}</td>
              <td>{l.state}</td>
              <td>
                <code>{l.command}</code>
              </td>
            </tr>
          ))}
        </Table>
      )}
    </Page>
  );
}
