// The runner → k6 interface: one JSON options file (benchmarks/src/k6-options.ts writes and
// validates it into the run folder), its path the only variable k6 gets:
//   k6 run -e SG_K6_OPTIONS=/abs/k6-options.json benchmarks/sps.js
// Without it every field takes its default (the profile's values; benchmarks/README.md, "Options file").

export const OPTIONS_ENV = 'SG_K6_OPTIONS';
export const OPTIONS_SCHEMA = 'shellgrade.k6-options/1';

// The variables the scripts read before the options file: given without a file, they would be
// ignored silently, so they stop the run instead.
const FORMER_VARIABLES = [
  'PROFILE', 'BASE_URL', 'ORIGIN', 'USERS_CSV', 'ARCHIVE', 'PRODUCTION_DATA', 'SUMMARY_JSON', 'SUMMARY_TXT',
  'PEAK', 'RAMP_S', 'HOLD_S', 'PAUSE_S', 'TIMEOUT_S', 'APDEX_T_MS', 'APDEX_F_MS', 'THRESHOLDS', 'LOG_SPS',
  'LOG_REQUESTS', 'REPLY', 'POLL_S', 'POLL_MAX_S', 'CONNECTION_REUSE', 'ARRIVALS', 'ARRIVALS_OVERSAMPLE',
  'HONOUR_RETRY_AFTER', 'MAX_RETRIES', 'STEPS', 'TRANSITION_S',
  'PS', 'VUS', 'GAP_S', 'PATTERN', 'AGGREGATED', 'CLASS', 'TEACHER_EMAIL', 'TEACHER_PASSWORD',
];

/**
 * The options of one script, read in the init context.
 * @param env      __ENV
 * @param readFile (path) => text: the script's own `open` (paths resolve as the script's would)
 * @param script   'sps' | 'mix' | 'sweep': a file written for another script is refused
 */
export function readOptions(env, readFile, script) {
  const file = env[OPTIONS_ENV];
  if (!file) {
    const former = FORMER_VARIABLES.filter((name) => env[name] !== undefined && env[name] !== '');
    if (former.length > 0) {
      throw new Error(`${former.join(', ')}: k6 reads its options from one JSON file now, ` +
        `-e ${OPTIONS_ENV}=<file> (benchmarks/README.md, "Options file")`);
    }
    return {};
  }
  let options;
  try {
    options = JSON.parse(readFile(file));
  } catch (e) {
    throw new Error(`${OPTIONS_ENV}=${file}: ${e}`);
  }
  if (options === null || typeof options !== 'object' || Array.isArray(options)) throw new Error(`${OPTIONS_ENV}=${file}: not a JSON object`);
  if (options.schema !== undefined && options.schema !== OPTIONS_SCHEMA) throw new Error(`${OPTIONS_ENV}=${file}: schema "${options.schema}", expected ${OPTIONS_SCHEMA}`);
  if (options.script !== undefined && options.script !== script) throw new Error(`${OPTIONS_ENV}=${file} is for ${options.script}.js, not ${script}.js`);
  return options;
}

/** A non-negative number option, `fallback` when absent. */
export function numberOption(options, name, fallback) {
  const v = options[name];
  if (v === undefined || v === null) return fallback;
  if (typeof v !== 'number' || !isFinite(v) || v < 0) throw new Error(`${name} must be a non-negative number, got ${JSON.stringify(v)}`);
  return v;
}

/** A boolean option, `fallback` when absent. */
export function booleanOption(options, name, fallback) {
  const v = options[name];
  if (v === undefined || v === null) return fallback;
  if (typeof v !== 'boolean') throw new Error(`${name} must be true or false, got ${JSON.stringify(v)}`);
  return v;
}

/** A base URL option without its trailing slashes. */
export function urlOption(options, name, fallback) {
  return (options[name] || fallback).replace(/\/+$/, '');
}
