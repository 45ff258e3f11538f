import { pathOf } from './request-path';

describe('pathOf', () => {
  it('drops query and fragment', () => {
    expect(pathOf('/api/a?b=1#c')).toBe('/api/a');
    expect(pathOf('/api/a#c')).toBe('/api/a');
    expect(pathOf('/api/a')).toBe('/api/a');
  });
});
