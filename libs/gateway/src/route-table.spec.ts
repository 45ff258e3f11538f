import { classifyPath } from './route-table';

describe('classifyPath', () => {
  it.each([
    ['/api/exercise-production', 'exercise'],
    ['/api/exercise-production/', 'exercise'],
    ['/api/exercise-production/42', 'exercise'],
    ['/api/exercise-production?ex_id=2', 'exercise'],
    ['/api/exercise-productions', 'exercise'],
    ['/api/exercise-trial', 'exercise'],
    ['/api/exercise-trials', 'exercise'],
    ['/api/Exercise-Production/7', 'exercise'],
    ['/api/student-statement', 'exercise'],
    ['/api/student-statement/3/5', 'exercise'],
    ['/api/student-statements?session=1', 'exercise'],
    ['/api/exercise', 'leftover'],
    ['/api/exercises/2', 'leftover'],
    ['/api/exercise-productionx', 'leftover'],
    ['/api/user/login', 'leftover'],
    ['/api/auth/verify', 'leftover'],
    ['/api/business-session/1', 'leftover'],
    ['/api/sequences', 'leftover'],
    ['/api', 'leftover'],
    ['/api/', 'leftover'],
    ['/api/health', 'leftover'],
    ['/api/user/exercise-production', 'leftover'],
  ])('%s → %s', (url, upstream) => {
    expect(classifyPath(url)).toEqual({ kind: 'proxy', upstream });
  });

  it.each(['/', '/health', '/metrics', '/docs', '/apix', '/apis/user', '/x/api/user', '/exercise-production'])(
    '%s is answered by the gateway itself',
    (url) => {
      expect(classifyPath(url)).toEqual({ kind: 'local' });
    },
  );
});
