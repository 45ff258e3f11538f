import type { CatalogExercise } from '@shellgrade/admin-cli/seed';

/** A two-exercise catalog (test data; the real one comes from libs/grading). */
export const testCatalog: CatalogExercise[] = [
  {
    slug: 'paper-scripts',
    name: 'Scripts of the paper',
    statementHtml: '<p>Write hello.sh</p>',
    questionArchive: Buffer.from([0x1f, 0x8b, 1, 2, 3]),
    graderScript: 'print("{}")',
    locale: 'en',
    skills: ['scripts', 'permissions'],
  },
  {
    slug: 'file-permissions',
    name: 'File permissions',
    statementHtml: '<p>chmod</p>',
    questionArchive: Buffer.from([0x1f, 0x8b, 4, 5, 6]),
    graderScript: 'print("{}")',
    locale: 'fr',
    skills: ['permissions'],
  },
];
