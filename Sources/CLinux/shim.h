// Linux interfaces that Swift's Glibc module leaves out.
#include <fcntl.h>
#include <sys/vfs.h>

// Glibc defines it only under _GNU_SOURCE; the value is part of the kernel's ABI.
#ifndef F_SETPIPE_SZ
#define F_SETPIPE_SZ 1031
#endif

// posix_spawn_file_actions_addchdir_np (glibc 2.29; Debian 12 has 2.36) is declared by spawn.h
// only under _GNU_SOURCE. It sets a child's working directory without a chdir in this
// (possibly multi-threaded) process.
#include <spawn.h>
int posix_spawn_file_actions_addchdir_np(posix_spawn_file_actions_t *actions, const char *path);
// posix_spawn_file_actions_addclosefrom_np (glibc 2.34): the child closes every descriptor from
// the given one up, including those this process inherited without close-on-exec.
int posix_spawn_file_actions_addclosefrom_np(posix_spawn_file_actions_t *actions, int from);

// pipe2 (Linux 2.6.27, glibc 2.9) is declared by unistd.h only under _GNU_SOURCE. It makes a
// pipe with close-on-exec and non-blocking set in one call, so no child can inherit it between
// the pipe and a later fcntl.
#include <unistd.h>
int pipe2(int pipefd[2], int flags);

// accept4 (Linux 2.6.28) is declared by sys/socket.h only under _GNU_SOURCE. It accepts a
// connection with close-on-exec set, so no child started meanwhile inherits it.
#include <sys/socket.h>
int accept4(int sockfd, struct sockaddr *addr, socklen_t *addrlen, int flags);

// SO_PEERCRED's answer: `struct ucred` is defined only under _GNU_SOURCE; this is its layout
// (socket(7)).
#include <sys/types.h>
struct wallet_bridge_peer_credentials {
    pid_t pid;
    uid_t uid;
    gid_t gid;
};

// POSIX_SPAWN_SETSID (glibc 2.26) is defined by spawn.h only under _GNU_SOURCE: the agent a host
// starts gets its own session, out of reach of signals a browser sends the host's group.
#ifndef POSIX_SPAWN_SETSID
#define POSIX_SPAWN_SETSID 0x80
#endif

// prctl(PR_SET_DUMPABLE, 0): no core dump and no ptrace by other processes of the same user,
// for the process that holds unlocked keys. prctl is variadic, which Swift cannot call.
#include <sys/prctl.h>
static inline int wallet_bridge_set_undumpable(void) { return prctl(PR_SET_DUMPABLE, 0, 0, 0, 0); }

// pidfd_open (Linux 5.3): a descriptor that becomes readable when the process exits, so one
// poll can wait for a child's exit and for something else. The syscall has no glibc wrapper
// before 2.36 in every header set, and syscall() is variadic, which Swift cannot call.
#include <sys/syscall.h>
#ifndef SYS_pidfd_open
#define SYS_pidfd_open 434
#endif
static inline int wallet_bridge_pidfd_open(pid_t pid) { return (int)syscall(SYS_pidfd_open, pid, 0); }

// Signal-driven notice of a file descriptor's input, aimed at one thread (fcntl(2): F_SETOWN_EX
// with F_OWNER_TID), so that the signal is pending on that thread from the moment the event is
// queued. `struct f_owner_ex` and its constants are defined only under _GNU_SOURCE; these are
// their values in the kernel's ABI.
#include <signal.h>
#include <sys/inotify.h>
struct wallet_bridge_owner {
    int type;
    pid_t pid;
};
static inline int wallet_bridge_signal_thread_on_input(int fd, pid_t thread) {
    struct wallet_bridge_owner owner = { 0 /* F_OWNER_TID */, thread };
    if (fcntl(fd, 15 /* F_SETOWN_EX */, &owner) != 0) return -1;
    int flags = fcntl(fd, F_GETFL);
    return flags < 0 ? -1 : fcntl(fd, F_SETFL, flags | O_ASYNC | O_NONBLOCK);
}
// gettid (glibc 2.30) is declared by unistd.h only under _GNU_SOURCE.
static inline pid_t wallet_bridge_thread_id(void) { return (pid_t)syscall(SYS_gettid); }
