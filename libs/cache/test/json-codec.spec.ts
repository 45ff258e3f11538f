import type { SubmissionContext } from '@shellgrade/domain';
import { contextAnswers, decodeContextEntry, encodeContextEntry } from '../src/context-entry';
import { decodeJson, encodeJson } from '../src/json-codec';
import { sampleContext } from './sample-context';

describe('encodeJson / decodeJson', () => {
  it('round-trips Buffers byte for byte, including empty ones and every byte value', () => {
    const allBytes = Buffer.from(Array.from({ length: 256 }, (_, i) => i));
    const value = { empty: Buffer.alloc(0), allBytes, nested: [{ gz: Buffer.from([0x1f, 0x8b, 0, 255]) }] };
    const back = decodeJson(encodeJson(value)) as typeof value;
    expect(Buffer.isBuffer(back.allBytes)).toBe(true);
    expect(back.allBytes.equals(allBytes)).toBe(true);
    expect(Buffer.isBuffer(back.empty) && back.empty.length).toBe(0);
    expect(back.nested[0]!.gz.equals(Buffer.from([0x1f, 0x8b, 0, 255]))).toBe(true);
  });

  it('round-trips Dates to the millisecond and keeps null, numbers, strings and arrays as they are', () => {
    const value = { at: new Date('2026-11-22T07:15:30.123Z'), none: null, n: 42, s: 'é"\\', list: ['a', 'b'] };
    const back = decodeJson(encodeJson(value)) as typeof value;
    expect(back.at).toBeInstanceOf(Date);
    expect(back.at.getTime()).toBe(value.at.getTime());
    expect(back).toEqual(value);
  });

  it('stores Buffers as base64, not as arrays of numbers', () => {
    expect(encodeJson({ b: Buffer.from('hello') })).toBe('{"b":{"$buffer":"aGVsbG8="}}');
    expect(encodeJson(new Date(0))).toBe('{"$date":"1970-01-01T00:00:00.000Z"}');
  });

  it('leaves objects that merely contain a tag key among others alone', () => {
    expect(decodeJson('{"$buffer":"aGk=","other":1}')).toEqual({ $buffer: 'aGk=', other: 1 });
    expect(decodeJson('{"$date":5}')).toEqual({ $date: 5 });
  });
});

describe('submission-context entries', () => {
  it('round-trip a whole context exactly (archives, deadline, skills)', () => {
    const context = sampleContext();
    const back = decodeContextEntry(encodeContextEntry(context));
    expect(back).toEqual(context);
    expect(back!.statement.questionArchive.equals(context.statement.questionArchive)).toBe(true);
    expect(back!.exercise.questionArchive.equals(context.exercise.questionArchive)).toBe(true);
    expect(back!.statement.deadline).toBeInstanceOf(Date);
    expect(back!.statement.deadline!.getTime()).toBe(context.statement.deadline!.getTime());
  });

  it('round-trip a context without a deadline', () => {
    const context: SubmissionContext = { ...sampleContext(), statement: { ...sampleContext().statement, deadline: null } };
    expect(decodeContextEntry(encodeContextEntry(context))!.statement.deadline).toBeNull();
  });

  it.each([
    ['not JSON', '{"v":1,'],
    ['another format version', encodeContextEntry(sampleContext()).replace('{"v":2', '{"v":3')],
    ['no context', '{"v":2}'],
    ['no exercise', '{"v":2,"context":{"statement":{"id":1}}}'],
    ['no session (format 1)', encodeContextEntry({ ...sampleContext(), session: undefined } as never)],
    ['a JSON array', '[1]'],
  ])('read %s as no entry', (_what, text) => {
    expect(decodeContextEntry(text)).toBeNull();
  });

  it('answer only the statement’s own user and exercise', () => {
    const context = sampleContext();
    const { userId, exerciseId } = context.statement;
    expect(contextAnswers(context, userId, exerciseId)).toBe(true);
    expect(contextAnswers(context, userId + 1, exerciseId)).toBe(false);
    expect(contextAnswers(context, userId, exerciseId + 1)).toBe(false);
  });
});
