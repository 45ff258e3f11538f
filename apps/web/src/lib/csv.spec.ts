import { parseRoster } from './csv';

describe('parseRoster', () => {
  it('reads emails with optional names, skipping the header and blank lines', () => {
    expect(parseRoster('email,firstname,lastname\nAda@X.org,Ada,L\n\n bob@x.org \n')).toEqual({
      students: [
        { email: 'ada@x.org', firstname: 'Ada', lastname: 'L' },
        { email: 'bob@x.org', firstname: '', lastname: '' },
      ],
      invalid: [],
    });
  });
  it('reports lines that hold no email', () => {
    expect(parseRoster('not-an-email\nok@x.org').invalid).toEqual(['not-an-email']);
  });
});
