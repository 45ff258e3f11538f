/**
 * What the JSON-body tests observe instead of timing (libs/http body-limit-routes, the wiring's
 * json-body-auth suite): the length of every string handed to JSON.parse during a test, the parser
 * counter by caller, and the SPA's submission body they send.
 */
import { jsonBodiesParsed } from '../json-bodies';

export interface JsonParseWatch {
  /** Lengths of the strings JSON.parse was given since the test began (or since `reset`). */
  readonly lengths: () => number[];
  /** The longest of them (0 when nothing was parsed). */
  readonly largest: () => number;
  /** Forget what was parsed so far (a login's own body, say). */
  readonly reset: () => void;
}

/** Watches JSON.parse around each test of the enclosing describe (call it at describe level). */
export function watchJsonParse(): JsonParseWatch {
  let lengths: number[] = [];
  beforeEach(() => {
    lengths = [];
    const parse = JSON.parse;
    jest.spyOn(JSON, 'parse').mockImplementation((text: string, reviver?: Parameters<typeof JSON.parse>[1]) => {
      lengths.push(String(text).length);
      return parse(text, reviver);
    });
  });
  afterEach(() => jest.restoreAllMocks());
  return { lengths: () => lengths, largest: () => Math.max(0, ...lengths), reset: () => void (lengths = []) };
}

/** How many JSON bodies the parser has read for this kind of caller (the process's counter). */
export const parsedCount = async (caller: 'anonymous' | 'authenticated'): Promise<number> =>
  (await jsonBodiesParsed.get()).values.find((v) => v.labels.caller === caller)?.value ?? 0;

/** The SPA's JSON submission of an archive (`data` maps byte index to byte), as the string sent. */
export const spaSubmission = (exId: number, psId: number, bytes: ArrayLike<number>): string =>
  `{"ex_id":${exId},"ps_id":${psId},"production_data":{"name":"answer.tgz","size":${bytes.length},"data":{${Array.from(bytes, (b, i) => `"${i}":${b}`).join(',')}}}}`;
