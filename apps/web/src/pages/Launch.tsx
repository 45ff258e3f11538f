/**
 * Launch a benchmark run (admins): a preset and a profile, started by the server as the shell
 * command shown (one at a time: a busy machine answers 409 with the run going on), and the
 * launches so far with their state, each opening its live page.
 */
import { useState, type FormEvent } from 'react';
import { Link, useNavigate } from 'react-router';
import { request } from '../api';
import type { LaunchList } from '@shellgrade/console-contract';
import type { Launch as LaunchRecord } from '../lib/launch';
import { ErrorMessage, Loading, Page, useLoad } from '../ui';

export function Launch() {
  const launches = useLoad(() => request<LaunchList>('/ops/launches'), []);
  const presets = useLoad(() => request<{ presets: { name: string; error?: string }[] }>('/ops/presets').then((r) => r.presets.filter((p) => !p.error).map((p) => p.name)), []);
  const [preset, setPreset] = useState('naked-mon');
  const [profile, setProfile] = useState('smoke');
  const [error, setError] = useState<unknown>();
  const navigate = useNavigate();

  async function launch(e: FormEvent) {
    e.preventDefault();
    setError(undefined);
    try {
      const r = await request<{ launch: LaunchRecord }>('/ops/launches', { method: 'POST', body: { plan: 'run', preset, profile } });
      void navigate(`/console/launches/${encodeURIComponent(r.launch.id)}`);
    } catch (err) {
      setError(err);
      launches.reload();
    }
  }

  return (
    <Page title="Launch a run">
      <ErrorMessage error={launches.error ?? presets.error} />
      {(launches.loading || presets.loading) && <Loading what="the presets and profiles" />}
      {launches.data && presets.data && (
        <form className="card row" onSubmit={(e) => void launch(e)}>
          <label htmlFor="l-plan">Plan</label>
          <select id="l-plan" value="run" disabled>
            <option value="run">run (one test of the protocol)</option>
          </select>
          <label htmlFor="l-preset">Preset</label>
          <select id="l-preset" value={preset} onChange={(e) => setPreset(e.target.value)}>
            {presets.data.map((p) => (
              <option key={p}>{p}</option>
            ))}
          </select>
          <label htmlFor="l-profile">Profile</label>
          <select id="l-profile" value={profile} onChange={(e) => setProfile(e.target.value)}>
            {launches.data.profiles.map((p) => (
              <option key={p}>{p}</option>
            ))}
          </select>
          <button type="submit">Launch</button>
          <code className="command" data-testid="launch-command">
            npm run bench -- run --variant {preset} --profile {profile}
          </code>
        </form>
      )}
      <ErrorMessage error={error} />
      {launches.data?.busy && (
        <p>
          Running now: <Link to={`/console/launches/${encodeURIComponent(launches.data.busy)}`}>{launches.data.busy}</Link>
        </p>
      )}
      {launches.data && launches.data.launches.length > 0 && (
        <div className="scroll">
          <table data-testid="launches">
            <thead>
              <tr>
                <th scope="col">Run</th>
                <th scope="col">State</th>
                <th scope="col">Command</th>
              </tr>
            </thead>
            <tbody>
              {launches.data.launches.map((l) => (
                <tr key={l.id}>
                  <th scope="row">
                    <Link to={`/console/launches/${encodeURIComponent(l.id)}`}>{l.id}</Link>
                  </th>
                  <td>{l.state}</td>
                  <td>
                    <code>{l.command}</code>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </Page>
  );
}
