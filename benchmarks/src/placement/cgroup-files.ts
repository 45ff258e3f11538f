// Reading and probing cgroup control files: a file that is missing or unreadable is an answer
// (the controller is not there, or not ours), never an error, so detection can say why.
import { accessSync, constants, readFileSync } from 'node:fs';

/** The file's trimmed text, or null when it cannot be read. */
export const readControl = (file: string): string | null => {
  try {
    return readFileSync(file, 'utf8').trim();
  } catch {
    return null;
  }
};

/** Whether this process may write the path. */
export const writable = (path: string): boolean => {
  try {
    accessSync(path, constants.W_OK);
    return true;
  } catch {
    return false;
  }
};
