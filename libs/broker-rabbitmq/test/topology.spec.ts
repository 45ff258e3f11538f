import { topologyOf } from '../src/topology';

describe('topology', () => {
  it('derives the dead-letter names from the work queue', () => {
    expect(topologyOf('q')).toEqual({ work: 'q', deadLetterExchange: 'q.dlx', deadLetter: 'q.dead' });
  });
});
