import { parseRoster, toCsv } from './csv';

describe('toCsv', () => {
  it('quotes cells holding commas, quotes or line breaks, and only those', () => {
    expect(toCsv([['a', 1, null], ['x,y', 'say "hi"', 'l1\nl2']])).toBe('a,1,\r\n"x,y","say ""hi""","l1\nl2"\r\n');
  });
});

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
