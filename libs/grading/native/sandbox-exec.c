/*
 * sandbox-exec: the first process of one student script's sandbox (docs/design.md, Untrusted input).
 *
 * The student supervisor (this same program run with --supervise, student-supervisor.c) starts it
 * with posix_spawn as PID 1 of a new PID namespace (it unshares CLONE_NEWPID just for this child),
 * once per student script. This program then does what bwrap + prlimit + setpriv did in four
 * programs, and a Python clone() and fork() did in two copies of a Python supervisor:
 *
 *   - new mount, IPC, UTS and cgroup namespaces; a fresh root: a tmpfs holding read-only /usr
 *     (and the /bin, /lib... links), a few /etc files, a fresh /proc (hidepid=2), a minimal
 *     /dev, a private /tmp and the script's throw-away copy at its own path; pivot into it and
 *     drop the old root;
 *   - it stays as the namespace's reaper (the script is never PID 1, so its signals behave as
 *     anywhere) and forks the script's process, which takes a session of its own, the resource
 *     limits (as root: hard limits it cannot raise), drops every capability, becomes the student
 *     uid, sets no_new_privs, loads the system-call filter last and executes the interpreter;
 *   - it exits with the script's status (128 + n for a signal); killing it ends the namespace.
 *
 * Usage (every option required but --filter):
 *   sandbox-exec --root DIR --tree DIR --copy DIR --cwd DIR --uid N --tmp-bytes N
 *                --limits cpu:fsize:nproc:as:nofile [--filter BPF] -- interpreter args...
 * The script's environment is this program's. Exit status 1 when the sandbox could not be set
 * up or the interpreter not executed (bwrap's), with the reason on stderr.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <linux/capability.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <sched.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>
#include "launcher.h"

#define SETUP_FAILED 1
#define MAX_FILTER_BYTES (64 * 1024)

static const char *const SYSTEM_LINKS[] = {"/bin", "/lib", "/lib64", "/sbin"};
static const char *const ETC_FILES[] = {"/etc/alternatives", "/etc/ld.so.cache", "/etc/passwd", "/etc/group", "/etc/nsswitch.conf", "/etc/localtime"};
static const char *const DEVICES[] = {"null", "zero", "full", "random", "urandom", "tty"};
static const char *const DEV_LINKS[][2] = {{"core", "/proc/kcore"}, {"fd", "/proc/self/fd"}, {"stdin", "/proc/self/fd/0"},
                                           {"stdout", "/proc/self/fd/1"}, {"stderr", "/proc/self/fd/2"}, {"ptmx", "pts/ptmx"}};
#define COUNT(a) (sizeof(a) / sizeof((a)[0]))

struct spec {
  const char *root, *tree, *copy, *cwd, *limits, *filter_path;
  long uid, tmp_bytes;
  char **argv;
  struct sock_fprog filter;
};

static void fail(const char *fmt, ...) {
  char message[512];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(message, sizeof message, fmt, ap);
  va_end(ap);
  dprintf(2, "sandbox: setup failed: %s: %s\n", message, strerror(errno));
  _exit(SETUP_FAILED);
}

static void check(int result, const char *what, const char *target) {
  if (result != 0) fail("%s %s", what, target ? target : "");
}

static char *path_join(const char *a, const char *b) {
  char *p;
  if (asprintf(&p, "%s%s", a, b) < 0) fail("out of memory");
  return p;
}

/* `dir`/`name`. */
static char *entry_of(const char *dir, const char *name) {
  char *p;
  if (asprintf(&p, "%s/%s", dir, name) < 0) fail("out of memory");
  return p;
}

static void make_dir(const char *path) {
  check(mkdir(path, 0755), "mkdir", path);
  check(chmod(path, 0755), "chmod", path); /* whatever the umask */
}

static void make_file(const char *path) {
  int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0) fail("create %s", path);
  close(fd);
}

static void do_mount(const char *source, const char *target, const char *fstype, unsigned long flags, const char *data) {
  check(mount(source, target, fstype, flags, data), "mount", target);
}

/* A bind mount, never setuid, device files only where asked (as bwrap's binds). */
static void bind(const char *source, const char *target, int read_only, int devices) {
  do_mount(source, target, NULL, MS_BIND | MS_REC, NULL);
  do_mount(NULL, target, NULL, MS_BIND | MS_REMOUNT | MS_NOSUID | (devices ? 0 : MS_NODEV) | (read_only ? MS_RDONLY : 0), NULL);
}

static void tmpfs(const char *target, long bytes, int mode) {
  char data[64];
  snprintf(data, sizeof data, "size=%ld,mode=%o", bytes, mode);
  do_mount("tmpfs", target, "tmpfs", MS_NOSUID | MS_NODEV, data);
}

static int is_dir(const char *path) {
  struct stat st;
  return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

static int is_symlink(const char *path) {
  struct stat st;
  return lstat(path, &st) == 0 && S_ISLNK(st.st_mode);
}

/* mkdir -p with mode 0755 for each folder made. */
static void make_dirs(const char *path) {
  char *copy = strdup(path);
  for (char *slash = strchr(copy + 1, '/'); ; slash = strchr(slash + 1, '/')) {
    if (slash) *slash = '\0';
    if (mkdir(copy, 0755) != 0 && errno != EEXIST) fail("mkdir %s", copy);
    if (!slash) break;
    *slash = '/';
  }
  free(copy);
}

/* bwrap --dev: a tmpfs with the harmless devices bound from the grader sandbox's /dev, and a private pts. */
static void build_dev(const char *dev) {
  make_dir(dev);
  do_mount("tmpfs", dev, "tmpfs", MS_NOSUID, "mode=0755");
  for (size_t i = 0; i < COUNT(DEVICES); i++) {
    char *host = entry_of("/dev", DEVICES[i]), *node = entry_of(dev, DEVICES[i]);
    if (access(host, F_OK) == 0) {
      make_file(node);
      bind(host, node, 0, 1);
    }
    free(host), free(node);
  }
  for (size_t i = 0; i < COUNT(DEV_LINKS); i++) {
    char *link = entry_of(dev, DEV_LINKS[i][0]);
    check(symlink(DEV_LINKS[i][1], link), "symlink", link);
    free(link);
  }
  char *shm = entry_of(dev, "shm"), *pts = entry_of(dev, "pts");
  make_dir(shm);
  make_dir(pts);
  /* no terminal for scripts when devpts cannot be mounted, as under a bwrap without it */
  mount("devpts", pts, "devpts", MS_NOSUID | MS_NOEXEC, "newinstance,ptmxmode=0666,mode=620");
  free(shm), free(pts);
}

static void build_root(const struct spec *s) {
  const char *r = s->root;
  char buf[4096];
  tmpfs(r, 1 << 20, 0755);
  char *usr = path_join(r, "/usr");
  make_dir(usr);
  bind("/usr", usr, 1, 0);
  for (size_t i = 0; i < COUNT(SYSTEM_LINKS); i++) {
    char *target = path_join(r, SYSTEM_LINKS[i]);
    if (is_symlink(SYSTEM_LINKS[i])) {
      ssize_t n = readlink(SYSTEM_LINKS[i], buf, sizeof buf - 1);
      if (n < 0) fail("readlink %s", SYSTEM_LINKS[i]);
      buf[n] = '\0';
      check(symlink(buf, target), "symlink", target);
    } else if (is_dir(SYSTEM_LINKS[i])) {
      make_dir(target);
      bind(SYSTEM_LINKS[i], target, 1, 0);
    }
    free(target);
  }
  char *etc = path_join(r, "/etc");
  make_dir(etc);
  for (size_t i = 0; i < COUNT(ETC_FILES); i++) {
    char *target = path_join(r, ETC_FILES[i]);
    if (is_dir(ETC_FILES[i])) make_dir(target);
    else if (access(ETC_FILES[i], F_OK) == 0) make_file(target);
    else { free(target); continue; }
    bind(ETC_FILES[i], target, 1, 0);
    free(target);
  }
  char *tmp = path_join(r, "/tmp");
  make_dir(tmp);
  tmpfs(tmp, s->tmp_bytes, 01777);
  char *dev = path_join(r, "/dev");
  build_dev(dev);
  char *proc = path_join(r, "/proc");
  make_dir(proc);
  /* hidepid: the script sees its own processes only, not this PID 1 */
  do_mount("proc", proc, "proc", MS_NOSUID | MS_NODEV | MS_NOEXEC, "hidepid=2");
  char *top = path_join(r, s->tree);
  make_dirs(top);
  char *parent = strdup(top);
  *strrchr(parent, '/') = '\0';
  check(chmod(parent, 0755), "chmod", parent);
  bind(s->copy, top, 0, 0);
  free(usr), free(etc), free(tmp), free(dev), free(proc), free(top), free(parent);
}

static void pivot_root_here(const char *root) {
  check(chdir(root), "chdir", root);
  check((int)syscall(SYS_pivot_root, ".", "."), "pivot_root", root);
  check(umount2(".", MNT_DETACH), "umount", "the old root");
  check(chdir("/"), "chdir", "/");
}

static rlim_t hard_capped(int which, const char *value) {
  struct rlimit now;
  if (strcmp(value, "unlimited") != 0) return (rlim_t)strtoull(value, NULL, 10);
  getrlimit(which, &now);
  return now.rlim_max; /* raising a hard limit needs CAP_SYS_RESOURCE */
}

/* SG_LIMITS' "cpu:fsize:nproc:as:nofile" (limits.py); soft CPU < hard: SIGXCPU names the cause. */
static void apply_limits(const char *text) {
  static const int WHICH[] = {RLIMIT_CPU, RLIMIT_FSIZE, RLIMIT_NPROC, RLIMIT_AS, RLIMIT_NOFILE};
  char *copy = strdup(text), *save = NULL, *field = strtok_r(copy, ":", &save);
  for (size_t i = 0; field && i < COUNT(WHICH); i++, field = strtok_r(NULL, ":", &save)) {
    rlim_t v = hard_capped(WHICH[i], field);
    struct rlimit lim = {v, WHICH[i] == RLIMIT_CPU && v != RLIM_INFINITY ? v + 1 : v};
    check(setrlimit(WHICH[i], &lim), "setrlimit", field);
  }
  struct rlimit none = {0, 0};
  check(setrlimit(RLIMIT_CORE, &none), "setrlimit", "core");
  free(copy);
}

static void drop_capabilities(void) {
  int last = CAP_LAST_CAP;
  FILE *f = fopen("/proc/sys/kernel/cap_last_cap", "r");
  if (f) {
    if (fscanf(f, "%d", &last) != 1) last = CAP_LAST_CAP;
    fclose(f);
  }
  for (int cap = 0; cap <= last; cap++) check(prctl(PR_CAPBSET_DROP, cap, 0, 0, 0), "prctl", "PR_CAPBSET_DROP");
}

static void clear_capabilities(void) {
  struct __user_cap_header_struct header = {_LINUX_CAPABILITY_VERSION_3, 0};
  struct __user_cap_data_struct data[2] = {{0}};
  check((int)syscall(SYS_capset, &header, data), "capset", NULL);
}

/* The script's process: its session, limits, no capability, the student uid, the filter; then exec. */
static void become_student(const struct spec *s) {
  gid_t id = (gid_t)s->uid;
  if (setsid() < 0) fail("setsid");
  check(chdir(s->cwd), "chdir", s->cwd);
  apply_limits(s->limits); /* as root: the hard limits can no longer be raised */
  drop_capabilities();     /* no capability can ever come back, whatever the script executes */
  check(setgroups(0, NULL), "setgroups", NULL);
  check(setresgid(id, id, id), "setresgid", NULL);
  check(setresuid((uid_t)s->uid, (uid_t)s->uid, (uid_t)s->uid), "setresuid", NULL);
  clear_capabilities();
  check(prctl(PR_SET_PDEATHSIG, SIGKILL, 0, 0, 0), "prctl", "PR_SET_PDEATHSIG"); /* the uid change cleared it */
  check(prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0), "prctl", "PR_SET_NO_NEW_PRIVS");
  for (int sig = 1; sig < NSIG; sig++) signal(sig, SIG_DFL); /* a fresh process's dispositions */
  sigset_t none;
  sigemptyset(&none);
  sigprocmask(SIG_SETMASK, &none, NULL);
  if (s->filter.len) check(prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &s->filter, 0, 0), "prctl", "PR_SET_SECCOMP"); /* last */
}

static void read_filter(struct spec *s) {
  static unsigned char program[MAX_FILTER_BYTES];
  int fd = open(s->filter_path, O_RDONLY | O_CLOEXEC);
  if (fd < 0) fail("open %s", s->filter_path);
  ssize_t n = read(fd, program, sizeof program);
  close(fd);
  if (n <= 0 || n % sizeof(struct sock_filter) || n == (ssize_t)sizeof program) {
    errno = EINVAL;
    fail("%s is not a BPF program", s->filter_path);
  }
  s->filter.len = (unsigned short)(n / sizeof(struct sock_filter));
  s->filter.filter = (struct sock_filter *)program;
}

static void parse(int argc, char **argv, struct spec *s) {
  memset(s, 0, sizeof *s);
  s->uid = -1;
  int i = 1;
  for (; i + 1 < argc && strcmp(argv[i], "--") != 0; i += 2) {
    const char *key = argv[i], *value = argv[i + 1];
    if (!strcmp(key, "--root")) s->root = value;
    else if (!strcmp(key, "--tree")) s->tree = value;
    else if (!strcmp(key, "--copy")) s->copy = value;
    else if (!strcmp(key, "--cwd")) s->cwd = value;
    else if (!strcmp(key, "--uid")) s->uid = strtol(value, NULL, 10);
    else if (!strcmp(key, "--tmp-bytes")) s->tmp_bytes = strtol(value, NULL, 10);
    else if (!strcmp(key, "--limits")) s->limits = value;
    else if (!strcmp(key, "--filter")) s->filter_path = value;
    else { errno = EINVAL; fail("unknown option %s", key); }
  }
  if (i >= argc - 1 || strcmp(argv[i], "--") != 0 || !s->root || !s->tree || s->tree[0] != '/' || !s->copy || !s->cwd ||
      s->uid <= 0 || s->tmp_bytes <= 0 || !s->limits) {
    errno = EINVAL;
    fail("usage: sandbox-exec --root DIR --tree DIR --copy DIR --cwd DIR --uid N --tmp-bytes N --limits L [--filter BPF] -- argv...");
  }
  s->argv = argv + i + 1;
}

/* One script's sandbox: called in a child the supervisor forks (no exec), or as this program's main. */
int sandbox_main(int argc, char **argv) {
  struct spec s;
  syscall(SYS_close_range, 3, ~0U, 0); /* nothing of the supervisor's: its socket to the grader, the pipes' other ends */
  parse(argc, argv, &s);
  check(prctl(PR_SET_PDEATHSIG, SIGKILL, 0, 0, 0), "prctl", "PR_SET_PDEATHSIG");
  if (getpid() != 1) { errno = EINVAL; fail("not the first process of a new PID namespace"); }
  if (s.filter_path) read_filter(&s); /* before the root changes */
  check(unshare(CLONE_NEWNS | CLONE_NEWIPC | CLONE_NEWUTS | CLONE_NEWCGROUP), "unshare", NULL);
  do_mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL); /* mounts made from now on stay here */
  build_root(&s);
  pivot_root_here(s.root);
  pid_t script = fork();
  if (script < 0) fail("fork");
  if (script == 0) {
    become_student(&s);
    execvp(s.argv[0], s.argv);
    dprintf(2, "sandbox: execvp %s: %s\n", s.argv[0], strerror(errno));
    _exit(SETUP_FAILED);
  }
  int devnull = open("/dev/null", O_RDWR | O_CLOEXEC);
  for (int fd = 0; fd < 3; fd++) dup2(devnull, fd); /* the pipes end when the script's processes are gone, not when PID 1 is */
  close(devnull);
  for (;;) { /* orphans are ours to reap; the script's own status ends the sandbox */
    int status;
    pid_t pid = waitpid(-1, &status, 0);
    if (pid < 0 && errno == EINTR) continue;
    if (pid < 0) return SETUP_FAILED;
    if (pid == script) return WIFSIGNALED(status) ? 128 + WTERMSIG(status) : WEXITSTATUS(status);
  }
}
