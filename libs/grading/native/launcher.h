/*
 * The two modes of the student sandbox's launcher, one static program: launcher-main.c picks the
 * mode from its arguments. The supervisor (student-supervisor.c) forks a sandbox per student
 * script and calls sandbox_main in the child directly (no exec); the sandbox (sandbox-exec.c)
 * knows nothing of the supervisor.
 */
#ifndef SHELLGRADE_LAUNCHER_H
#define SHELLGRADE_LAUNCHER_H

/* One student script's sandbox (sandbox-exec.c): its usage is in that file's header. */
int sandbox_main(int argc, char **argv);

/* The student supervisor, serving the grader over its socket (student-supervisor.c; --supervise). */
int supervise_main(int argc, char **argv);

#endif
