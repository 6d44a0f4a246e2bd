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

// pipe2 (Linux 2.6.27, glibc 2.9) is declared by unistd.h only under _GNU_SOURCE. It makes a
// pipe with close-on-exec and non-blocking set in one call, so no child can inherit it between
// the pipe and a later fcntl.
#include <unistd.h>
int pipe2(int pipefd[2], int flags);
