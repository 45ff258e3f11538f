import { hopByHopHeaders, mergeVary, stripUpstreamCors } from './upstream-headers';

describe('upstream header hygiene', () => {
  it('drops every Access-Control-* header and keeps the rest', () => {
    const headers = {
      'access-control-allow-origin': 'http://evil',
      'access-control-allow-credentials': 'true',
      'set-cookie': ['a=1'],
      'content-type': 'application/json',
    };
    stripUpstreamCors(headers);
    expect(headers).toEqual({ 'set-cookie': ['a=1'], 'content-type': 'application/json' });
  });

  it('merges Vary without duplicates', () => {
    expect(mergeVary('Origin', 'Accept-Encoding, origin')).toBe('Origin, Accept-Encoding');
    expect(mergeVary(undefined, 'Accept')).toBe('Accept');
    expect(mergeVary('Origin', undefined)).toBe('Origin');
    expect(mergeVary(undefined, undefined)).toBe('');
  });

  it('lists hop-by-hop headers including those named by Connection', () => {
    expect(hopByHopHeaders('close, X-Secret')).toEqual(['connection', 'keep-alive', 'proxy-connection', 'upgrade', 'x-secret']);
    expect(hopByHopHeaders(undefined)).toEqual(['connection', 'keep-alive', 'proxy-connection', 'upgrade']);
  });
});
