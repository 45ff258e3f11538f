// Integration tests run real servers and real sandboxes: a grading under load takes seconds, so
// their per-test bound is one that names a hang (Jest's 5 s default failed slow-but-correct
// gradings), never a speed check. A file may still set its own.
jest.setTimeout(60_000);
