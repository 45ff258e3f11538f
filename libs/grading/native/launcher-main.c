/*
 * The launcher's entry: `--supervise` runs the student supervisor the grading job starts once;
 * anything else runs one script's sandbox (as the supervisor's fork does, or a direct call).
 */
#include <string.h>
#include "launcher.h"

int main(int argc, char **argv) {
  if (argc > 1 && !strcmp(argv[1], "--supervise")) return supervise_main(argc, argv);
  return sandbox_main(argc, argv);
}
