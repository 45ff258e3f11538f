import { gradingMessageSchema } from '@shellgrade/dispatch';
import { decodeJson, encodeJson, gradingReplySchema, replyOf } from '../src/grading-reply';

describe('grading reply', () => {
  const final = {
    id: 7, userId: 1, exerciseId: 2, statementId: 3, status: 'graded' as const, grade: 80,
    comment: [{ numQ: 1, verif: 'hello.sh exists', status: 'OK' as const, expl: '' }],
    failureReason: null, submissionKey: 'k', archiveSize: 3, archiveSha256: 'a'.repeat(64),
    createdAt: new Date('2026-11-27T00:00:00.000Z'), gradedAt: new Date('2026-11-27T00:00:01.500Z'),
  };

  it('carries the final production across the broker, dates revived, so the requester need not read it back', () => {
    const received = decodeJson(gradingReplySchema, encodeJson(replyOf(final)));
    expect(received).toEqual({ productionId: 7, status: 'graded', production: final });
  });

  it('carries no production when the worker has only its id and status, or it is not final', () => {
    expect(replyOf({ id: 7, status: 'failed' })).toEqual({ productionId: 7, status: 'failed' });
    expect(replyOf({ ...final, status: 'grading' })).toEqual({ productionId: 7, status: 'grading' });
  });
});

describe('the JSON codec', () => {
  it('decodes a grading message: {productionId} only', () => {
    expect(decodeJson(gradingMessageSchema, Buffer.from('{"productionId":7}'))).toEqual({ productionId: 7 });
    expect(decodeJson(gradingMessageSchema, Buffer.from('{"productionId":-1}'))).toBeNull();
    expect(decodeJson(gradingMessageSchema, Buffer.from('not json'))).toBeNull();
  });
});
