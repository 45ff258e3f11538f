/*
 * The student supervisor: `sandbox-exec --supervise`, the grading job's trusted helper for the
 * student's scripts (docs/design.md, Untrusted input).
 *
 * The job starts it as root with posix_spawn (shellgrade_grader/supervise.py), one end of a
 * socket pair as fd 3, just before the job's own process drops to the grader uid and runs
 * grader.py. It answers the grader's run_script requests one at a time:
 *
 *   - the script must lie in a folder the grader extracted under /job (a path resolved through
 *     its symbolic links), and the working folder in the same folder tree;
 *   - that tree is copied to a throw-away folder of the work root, every entry owned by the
 *     student uid (links stay links; folders, files, modes and times as they were; other kinds
 *     are left out), so nothing the script writes can change the grade or the files checked
 *     after it;
 *   - the script runs in a sandbox of its own: a fork of this program running sandbox-exec.c's
 *     code as PID 1 of a new PID namespace, with the copy mounted at the tree's own path;
 *   - its stdout and stderr come back bounded (64 KiB each; a script printing more than 4 MiB
 *     in all is killed), its stdin is written as it reads, its time is bounded; then its whole
 *     namespace is killed and its copy removed.
 *
 * It replaces a Python supervisor that was a second copy of the job's interpreter per grading —
 * a fork, its copy-on-write faults and its teardown: the grader now runs in the job's own process.
 * The grader cannot signal, trace or read it (another uid), and holds only its end of the channel.
 *
 * Messages on the channel: a 4-byte big-endian length, then
 *   request: script \0 cwd \0 timeout_ms \0 use_shebang (0|1) \0 nargs \0 arg_1 \0 ... arg_n \0 stdin
 *            (cwd empty: the script's folder; the stdin bytes run to the end of the message)
 *   reply:   has_returncode (1 byte) returncode (int32) timed_out (1 byte) stdout_len stderr_len
 *            (uint32 each) stdout stderr
 * A request that cannot be run gets no return code and the reason in stderr, as run_script says it.
 *
 * Usage: sandbox-exec --supervise --uid N --tmp-bytes N --work-root DIR --limits L [--filter BPF]
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <linux/openat2.h>
#include <limits.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include "launcher.h"

#define CHANNEL 3
#define JOB_ROOT "/job"
#define MAX_MESSAGE (1024 * 1024)
#define MAX_OUTPUT (64 * 1024)
#define MAX_TOTAL_OUTPUT (4 * 1024 * 1024)
#define MIN_TIMEOUT_MS 100
#define MAX_TIMEOUT_MS 60000
#define MAX_ARGS 1024
#define MAX_INTERPRETER_WORDS 16
#define SHEBANG_BYTES 256

extern char **environ;

struct settings {
  const char *self, *limits, *work_root, *filter;
  long uid, tmp_bytes;
  int own_pid_namespace;
  unsigned runs;
};

struct request {
  const char *script, *cwd;
  long timeout_ms;
  int use_shebang, nargs;
  const char *args[MAX_ARGS];
  const char *input;
  size_t input_len;
};

struct output {
  char bytes[MAX_OUTPUT];
  size_t len;
  int open;
};

struct reply {
  int has_returncode, returncode, timed_out;
  struct output out, err;
};

/* ---- the reply when a script cannot be run ---- */

static void refuse(struct reply *r, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  int n = snprintf(r->err.bytes, sizeof r->err.bytes, "the script could not be run: ");
  vsnprintf(r->err.bytes + n, sizeof r->err.bytes - (size_t)n, fmt, ap);
  va_end(ap);
  r->err.len = strlen(r->err.bytes);
  r->has_returncode = 0;
  r->timed_out = 0;
}

/* ---- the request ---- */

static int next_field(const char **at, const char *end, const char **field) {
  const char *nul = memchr(*at, '\0', (size_t)(end - *at));
  if (!nul) return -1;
  *field = *at;
  *at = nul + 1;
  return 0;
}

static int parse_number(const char *text, long *value) {
  char *rest;
  errno = 0;
  *value = strtol(text, &rest, 10);
  return rest == text || *rest || errno ? -1 : 0;
}

static int parse_request(const char *body, size_t size, struct request *q) {
  const char *at = body, *end = body + size, *timeout, *shebang, *nargs;
  long count;
  if (next_field(&at, end, &q->script) || next_field(&at, end, &q->cwd) || next_field(&at, end, &timeout) ||
      next_field(&at, end, &shebang) || next_field(&at, end, &nargs) || parse_number(nargs, &count) || count < 0 ||
      count > MAX_ARGS)
    return -1;
  char *rest;
  q->timeout_ms = strtol(timeout, &rest, 10); /* out of range: LONG_MIN or LONG_MAX, clamped by the caller */
  if (rest == timeout || *rest) return -1;
  q->use_shebang = strcmp(shebang, "0") != 0;
  q->nargs = (int)count;
  for (int i = 0; i < q->nargs; i++)
    if (next_field(&at, end, &q->args[i])) return -1;
  q->input = at;
  q->input_len = (size_t)(end - at);
  return 0;
}

/* ---- paths under /job ---- */

/* realpath() that, like Python's, also resolves a path whose last parts do not exist yet. */
static int resolve(const char *path, char *real, int depth) {
  if (realpath(path, real)) return 0;
  if ((errno != ENOENT && errno != ENOTDIR) || depth > 32) return -1;
  const char *slash = strrchr(path, '/');
  const char *name = slash + 1;
  if (!slash || !*name || !strcmp(name, ".") || !strcmp(name, "..")) return -1;
  char parent[PATH_MAX];
  size_t len = slash == path ? 1 : (size_t)(slash - path);
  memcpy(parent, path, len);
  parent[len] = '\0';
  if (resolve(parent, real, depth + 1)) return -1;
  size_t have = strlen(real);
  if (snprintf(real + have, PATH_MAX - have, "%s%s", have > 1 ? "/" : "", name) >= (int)(PATH_MAX - have)) return -1;
  return 0;
}

/* The resolved path (`real`) and the top folder under /job holding it (`tree`); -1 for anything else. */
static int inside_job(const char *path, char *real, char *tree) {
  char joined[PATH_MAX];
  if (snprintf(joined, sizeof joined, path[0] == '/' ? "%s" : JOB_ROOT "/%s", path) >= (int)sizeof joined) return -1;
  if (resolve(joined, real, 0)) return -1;
  size_t prefix = strlen(JOB_ROOT "/");
  if (strncmp(real, JOB_ROOT "/", prefix) != 0 || real[prefix] == '\0') return -1;
  const char *slash = strchr(real + prefix, '/');
  size_t len = slash ? (size_t)(slash - real) : strlen(real);
  memcpy(tree, real, len);
  tree[len] = '\0';
  struct stat st;
  return stat(tree, &st) == 0 && S_ISDIR(st.st_mode) ? 0 : -1;
}

/* ---- the throw-away copy ---- */

static int copy_bytes(int from, int to) {
  char buf[65536];
  for (;;) {
    ssize_t n = read(from, buf, sizeof buf);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return (int)n;
    for (ssize_t done = 0; done < n;) {
      ssize_t w = write(to, buf + done, (size_t)(n - done));
      if (w < 0 && errno == EINTR) continue;
      if (w < 0) return -1;
      done += w;
    }
  }
}

static int copy_file(int from_dir, int to_dir, const char *name, const struct stat *st, uid_t uid) {
  /* non-blocking and checked again once open: a file swapped for a fifo meanwhile must not hang us */
  int from = openat(from_dir, name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
  struct stat opened;
  if (from >= 0 && (fstat(from, &opened) || !S_ISREG(opened.st_mode))) close(from), from = -1, errno = EINVAL;
  if (from < 0) return -1;
  int to = openat(to_dir, name, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
  int ok = to >= 0 && copy_bytes(from, to) == 0 && fchown(to, uid, uid) == 0 &&
           fchmod(to, st->st_mode & 01777) == 0 && futimens(to, (struct timespec[]){st->st_atim, st->st_mtim}) == 0;
  int saved = errno;
  close(from);
  if (to >= 0) close(to);
  errno = saved;
  return ok ? 0 : -1;
}

static int copy_link(int from_dir, int to_dir, const char *name, const struct stat *st, uid_t uid) {
  char target[PATH_MAX];
  ssize_t n = readlinkat(from_dir, name, target, sizeof target - 1);
  if (n < 0) return -1;
  target[n] = '\0';
  if (symlinkat(target, to_dir, name) || fchownat(to_dir, name, uid, uid, AT_SYMLINK_NOFOLLOW)) return -1;
  return utimensat(to_dir, name, (struct timespec[]){st->st_atim, st->st_mtim}, AT_SYMLINK_NOFOLLOW);
}

/* The folder open at `from` copied as `name` into the folder open at `into`, owned by uid. */
static int copy_folder(int from, int into, const char *name, const struct stat *st, uid_t uid, int depth) {
  if (depth > 256 || mkdirat(into, name, 0700)) return -1;
  int to = openat(into, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
  if (to < 0) return -1;
  int listing = dup(from);
  DIR *dir = listing < 0 ? NULL : fdopendir(listing);
  int rc = dir ? 0 : -1;
  struct dirent *e;
  while (rc == 0 && dir && (errno = 0, e = readdir(dir))) {
    if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, "..")) continue;
    struct stat s;
    if (fstatat(from, e->d_name, &s, AT_SYMLINK_NOFOLLOW)) { rc = -1; break; }
    if (S_ISDIR(s.st_mode)) {
      int sub = openat(from, e->d_name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
      rc = sub < 0 ? -1 : copy_folder(sub, to, e->d_name, &s, uid, depth + 1);
      if (sub >= 0) close(sub);
    } else if (S_ISLNK(s.st_mode)) {
      rc = copy_link(from, to, e->d_name, &s, uid);
    } else if (S_ISREG(s.st_mode)) {
      rc = copy_file(from, to, e->d_name, &s, uid);
    } /* fifos, sockets, devices: not copied (a fifo would block the copy) */
  }
  int saved = errno;
  if (rc == 0 && saved) rc = -1; /* readdir failed: not a silently partial copy */
  if (dir) closedir(dir);
  else if (listing >= 0) close(listing);
  if (rc == 0 && (fchown(to, uid, uid) || fchmod(to, st->st_mode & 07777) ||
                  futimens(to, (struct timespec[]){st->st_atim, st->st_mtim}))) /* times last: after the entries */
    rc = -1, saved = errno;
  close(to);
  errno = saved;
  return rc;
}

static int copy_tree(const char *tree, const char *run_dir, const char *name, uid_t uid) {
  int from = open(tree, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
  int into = open(run_dir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
  struct stat st;
  int rc = from < 0 || into < 0 || fstat(from, &st) ? -1 : copy_folder(from, into, name, &st, uid, 0);
  int saved = errno;
  if (from >= 0) close(from);
  if (into >= 0) close(into);
  errno = saved;
  return rc;
}

static int remove_entry(const char *path, const struct stat *st, int kind, struct FTW *ftw) {
  (void)st, (void)ftw;
  if (kind == FTW_DP) rmdir(path);
  else unlink(path);
  return 0;
}

static void remove_tree(const char *path) {
  nftw(path, remove_entry, 16, FTW_DEPTH | FTW_PHYS | FTW_MOUNT);
}

/* ---- the script's sandbox ---- */

/* ["/bin/bash"] from "#!/bin/bash" (the words of the first line, up to 256 bytes); sh without one. */
static int interpreter_of(const char *script, char *line, char **words) {
  /* No link on the way: the path was resolved in the tree before the copy, a link now is a swap since */
  struct open_how how = {.flags = O_RDONLY | O_NONBLOCK | O_CLOEXEC, .resolve = RESOLVE_NO_SYMLINKS};
  int fd = (int)syscall(SYS_openat2, AT_FDCWD, script, &how, sizeof how), n = 0;
  ssize_t len = fd < 0 ? -1 : read(fd, line, SHEBANG_BYTES);
  if (fd >= 0) close(fd);
  if (len >= 2 && line[0] == '#' && line[1] == '!') {
    line[len] = '\0';
    line[strcspn(line, "\n")] = '\0';
    char *save = NULL;
    for (char *w = strtok_r(line + 2, " \t\r\v\f", &save); w && n < MAX_INTERPRETER_WORDS; w = strtok_r(NULL, " \t\r\v\f", &save)) words[n++] = w;
  }
  if (n == 0) words[n++] = "/bin/sh";
  return n;
}

static long now_ms(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec * 1000L + t.tv_nsec / 1000000L;
}


/*
 * The script's sandbox as PID 1 of a new PID namespace, its stdio our pipes: fds[0] its stdin, [1]
 * stdout, [2] stderr. A fork of this small process that calls sandbox-exec's code directly: an exec
 * and the dynamic loader per script cost more than the copy of these few pages.
 */
static pid_t spawn_sandbox(const struct settings *s, int argc, char **argv, char **env, int fds[3]) {
  int in[2], out[2], err[2];
  if (pipe2(in, O_CLOEXEC) || pipe2(out, O_CLOEXEC) || pipe2(err, O_CLOEXEC)) return -1;
  pid_t pid = -1;
  if (unshare(CLONE_NEWPID) == 0) { /* only the next child moves: it becomes PID 1 of a new namespace */
    pid = fork();
    if (pid == 0) {
      sigset_t none;
      sigemptyset(&none);
      sigprocmask(SIG_SETMASK, &none, NULL);
      signal(SIGPIPE, SIG_DFL); /* what a fresh process holds (the script's process resets every signal too) */
      if (dup2(in[0], 0) < 0 || dup2(out[1], 1) < 0 || dup2(err[1], 2) < 0) _exit(1);
      environ = env; /* the script's environment is the sandbox's */
      _exit(sandbox_main(argc, argv)); /* it closes every descriptor above 2 first: the channel too */
    }
    int saved = errno;
    if (setns(s->own_pid_namespace, CLONE_NEWPID)) { /* later children are ours again */
      dprintf(2, "student supervisor: setns: %s\n", strerror(errno));
      _exit(1);
    }
    errno = saved;
  }
  int saved = errno;
  close(in[0]), close(out[1]), close(err[1]);
  fds[0] = in[1], fds[1] = out[0], fds[2] = err[0];
  if (pid < 0) close(in[1]), close(out[0]), close(err[0]);
  errno = saved;
  return pid;
}

static void take_output(int fd, struct output *o, size_t *total) {
  char buf[65536];
  ssize_t n = read(fd, buf, sizeof buf);
  if (n < 0 && (errno == EINTR || errno == EAGAIN)) return;
  if (n <= 0) {
    o->open = 0;
    return;
  }
  *total += (size_t)n;
  size_t keep = (size_t)n < MAX_OUTPUT - o->len ? (size_t)n : MAX_OUTPUT - o->len;
  memcpy(o->bytes + o->len, buf, keep);
  o->len += keep;
}

/* Feeds stdin, gathers bounded output until both pipes end, the time is up or the output too large; then ends the sandbox. */
static void run_bounded(pid_t pid, int fds[3], const struct request *q, long timeout_ms, struct reply *r) {
  int pidfd = (int)syscall(SYS_pidfd_open, pid, 0); /* our unreaped child: its pid cannot be reused */
  long deadline = now_ms() + timeout_ms;
  size_t written = 0, total = 0;
  int input_open = q->input_len > 0;
  if (input_open) fcntl(fds[0], F_SETFL, O_NONBLOCK);
  else close(fds[0]);
  r->out.open = r->err.open = 1;
  while (input_open || r->out.open || r->err.open) {
    long left = deadline - now_ms();
    if (left <= 0 || total > MAX_TOTAL_OUTPUT) {
      r->timed_out = left <= 0;
      break;
    }
    struct pollfd p[3];
    int n = 0, at_in = -1, at_out = -1, at_err = -1;
    if (input_open) at_in = n, p[n++] = (struct pollfd){fds[0], POLLOUT, 0};
    if (r->out.open) at_out = n, p[n++] = (struct pollfd){fds[1], POLLIN, 0};
    if (r->err.open) at_err = n, p[n++] = (struct pollfd){fds[2], POLLIN, 0};
    if (poll(p, (nfds_t)n, (int)left) < 0) continue; /* EINTR */
    if (at_in >= 0 && p[at_in].revents) {
      size_t chunk = q->input_len - written < 65536 ? q->input_len - written : 65536;
      ssize_t w = write(fds[0], q->input + written, chunk);
      if (w > 0) written += (size_t)w;
      else if (w < 0 && errno != EAGAIN && errno != EINTR) written = q->input_len; /* EPIPE: the script stopped reading */
      if (written == q->input_len) close(fds[0]), input_open = 0;
    }
    if (at_out >= 0 && p[at_out].revents) take_output(fds[1], &r->out, &total);
    if (at_err >= 0 && p[at_err].revents) take_output(fds[2], &r->err, &total);
  }
  if (!r->timed_out && total <= MAX_TOTAL_OUTPUT && pidfd >= 0) {
    /* the pipes are closed; the script may still run (it closed them itself) */
    long left = deadline - now_ms();
    struct pollfd p = {pidfd, POLLIN, 0};
    if (poll(&p, 1, left > 0 ? (int)left : 0) == 0) r->timed_out = 1;
  }
  kill(pid, SIGKILL); /* PID 1: the sandbox's namespace goes with it */
  int status = 0;
  while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {}
  r->returncode = WIFSIGNALED(status) ? 128 + WTERMSIG(status) : WEXITSTATUS(status);
  r->has_returncode = !r->timed_out;
  if (input_open) close(fds[0]);
  close(fds[1]), close(fds[2]);
  if (pidfd >= 0) close(pidfd);
}

static char *number(char *buf, size_t size, long value) {
  snprintf(buf, size, "%ld", value);
  return buf;
}

/* The copy, its sandbox's root folder and the command: then the run itself. */
static void run_in(const struct settings *s, const struct request *q, const char *script, const char *tree,
                   const char *cwd, const char *run_dir, long timeout_ms, struct reply *r) {
  const char *name = strrchr(tree, '/') + 1;
  char copy[PATH_MAX], root[PATH_MAX], copied_script[PATH_MAX], line[SHEBANG_BYTES + 1], uid[24], tmp[24];
  if (snprintf(copy, sizeof copy, "%s/%s", run_dir, name) >= (int)sizeof copy ||
      snprintf(root, sizeof root, "%s/.root", run_dir) >= (int)sizeof root ||
      snprintf(copied_script, sizeof copied_script, "%s%s", copy, script + strlen(tree)) >= (int)sizeof copied_script) {
    refuse(r, "its path is too long");
    return;
  }
  if (copy_tree(tree, run_dir, name, (uid_t)s->uid)) { refuse(r, "its folder could not be copied (%s)", strerror(errno)); return; }
  if (mkdir(root, 0700)) { refuse(r, "its sandbox could not be made (%s)", strerror(errno)); return; }
  char *words[MAX_INTERPRETER_WORDS];
  int nwords = q->use_shebang ? interpreter_of(copied_script, line, words) : (words[0] = "/bin/sh", 1);
  char *argv[24 + MAX_INTERPRETER_WORDS + MAX_ARGS];
  int n = 0;
  char *options[] = {(char *)s->self, "--root", root, "--tree", (char *)tree, "--copy", copy, "--cwd", (char *)cwd,
                     "--uid", number(uid, sizeof uid, s->uid), "--tmp-bytes", number(tmp, sizeof tmp, s->tmp_bytes),
                     "--limits", (char *)s->limits};
  for (size_t i = 0; i < sizeof options / sizeof options[0]; i++) argv[n++] = options[i];
  if (s->filter) argv[n++] = "--filter", argv[n++] = (char *)s->filter;
  argv[n++] = "--";
  for (int i = 0; i < nwords; i++) argv[n++] = words[i];
  argv[n++] = (char *)script;
  for (int i = 0; i < q->nargs; i++) argv[n++] = (char *)q->args[i];
  argv[n] = NULL;
  char home[PATH_MAX + 8];
  snprintf(home, sizeof home, "HOME=%s", tree);
  char *env[] = {"PATH=/usr/local/bin:/usr/bin:/bin", home, "TMPDIR=/tmp", "LANG=C.UTF-8", NULL};
  int fds[3];
  pid_t pid = spawn_sandbox(s, n, argv, env, fds);
  if (pid < 0) { refuse(r, "its sandbox could not be started (%s)", strerror(errno)); return; }
  run_bounded(pid, fds, q, timeout_ms, r);
}

static void run_request(struct settings *s, const char *body, size_t size, struct reply *r) {
  static struct request q;
  char script[PATH_MAX], tree[PATH_MAX], cwd[PATH_MAX], cwd_tree[PATH_MAX], run_dir[PATH_MAX];
  if (parse_request(body, size, &q)) { refuse(r, "the request to run it is malformed"); return; }
  if (inside_job(q.script, script, tree)) { refuse(r, "scripts run only from a folder the grader extracted under /job"); return; }
  if (q.cwd[0]) {
    if (inside_job(q.cwd, cwd, cwd_tree) || strcmp(cwd_tree, tree)) { refuse(r, "the working folder must be in the script's folder tree"); return; }
  } else {
    strcpy(cwd, script);
    *strrchr(cwd, '/') = '\0';
  }
  long timeout_ms = q.timeout_ms < MIN_TIMEOUT_MS ? MIN_TIMEOUT_MS : q.timeout_ms > MAX_TIMEOUT_MS ? MAX_TIMEOUT_MS : q.timeout_ms;
  if (snprintf(run_dir, sizeof run_dir, "%s/run-%u", s->work_root, ++s->runs) >= (int)sizeof run_dir) { refuse(r, "its work folder's path is too long"); return; }
  if (mkdir(run_dir, 0711)) { refuse(r, "its work folder could not be made (%s)", strerror(errno)); return; }
  run_in(s, &q, script, tree, cwd, run_dir, timeout_ms, r);
  remove_tree(run_dir);
}

/* ---- the channel ---- */

static int read_full(int fd, void *buf, size_t size) {
  for (size_t done = 0; done < size;) {
    ssize_t n = read(fd, (char *)buf + done, size - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return -1;
    done += (size_t)n;
  }
  return 0;
}

static int send_reply(int fd, const struct reply *r) {
  unsigned char head[4 + 14];
  uint32_t size = htonl((uint32_t)(14 + r->out.len + r->err.len)), code = htonl((uint32_t)r->returncode);
  uint32_t out_len = htonl((uint32_t)r->out.len), err_len = htonl((uint32_t)r->err.len);
  memcpy(head, &size, 4);
  head[4] = (unsigned char)r->has_returncode;
  memcpy(head + 5, &code, 4);
  head[9] = (unsigned char)r->timed_out;
  memcpy(head + 10, &out_len, 4);
  memcpy(head + 14, &err_len, 4);
  struct iovec parts[3] = {{head, sizeof head}, {(void *)r->out.bytes, r->out.len}, {(void *)r->err.bytes, r->err.len}};
  size_t left = sizeof head + r->out.len + r->err.len;
  for (int i = 0; left > 0;) {
    ssize_t n = writev(fd, parts + i, 3 - i);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return -1;
    left -= (size_t)n;
    for (; i < 3 && (size_t)n >= parts[i].iov_len; i++) n -= (ssize_t)parts[i].iov_len, parts[i].iov_len = 0;
    if (i < 3) parts[i].iov_base = (char *)parts[i].iov_base + n, parts[i].iov_len -= (size_t)n;
  }
  return 0;
}

static int parse_settings(int argc, char **argv, struct settings *s) {
  memset(s, 0, sizeof *s);
  s->self = argv[0];
  s->uid = -1;
  for (int i = 2; i + 1 < argc; i += 2) {
    const char *key = argv[i], *value = argv[i + 1];
    if (!strcmp(key, "--uid")) s->uid = strtol(value, NULL, 10);
    else if (!strcmp(key, "--tmp-bytes")) s->tmp_bytes = strtol(value, NULL, 10);
    else if (!strcmp(key, "--work-root")) s->work_root = value;
    else if (!strcmp(key, "--limits")) s->limits = value;
    else if (!strcmp(key, "--filter")) s->filter = value;
    else return -1;
  }
  return argc % 2 == 0 && s->uid > 0 && s->tmp_bytes > 0 && s->work_root && s->limits ? 0 : -1;
}

int supervise_main(int argc, char **argv) {
  struct settings s;
  if (parse_settings(argc, argv, &s)) {
    dprintf(2, "usage: sandbox-exec --supervise --uid N --tmp-bytes N --work-root DIR --limits L [--filter BPF]\n");
    return 2;
  }
  prctl(PR_SET_PDEATHSIG, SIGKILL, 0, 0, 0); /* the grader gone, nobody is left to serve */
  signal(SIGPIPE, SIG_IGN);
  fcntl(CHANNEL, F_SETFD, FD_CLOEXEC); /* (sandbox-exec closes it too, first thing) */
  s.own_pid_namespace = open("/proc/self/ns/pid", O_RDONLY | O_CLOEXEC);
  if (s.own_pid_namespace < 0) {
    dprintf(2, "student supervisor: /proc/self/ns/pid: %s\n", strerror(errno));
    return 1;
  }
  static char body[MAX_MESSAGE + 1];
  static struct reply reply;
  for (;;) {
    uint32_t size;
    if (read_full(CHANNEL, &size, sizeof size)) return 0; /* the grader is done */
    size = ntohl(size);
    if (size > MAX_MESSAGE || read_full(CHANNEL, body, size)) return 1;
    memset(&reply, 0, sizeof reply);
    run_request(&s, body, size, &reply);
    if (send_reply(CHANNEL, &reply)) return 0;
  }
}
