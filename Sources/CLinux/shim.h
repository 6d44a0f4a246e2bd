// Linux interfaces that Swift's Glibc module leaves out.
#include <sys/signalfd.h>
#include <fcntl.h>
#include <sys/vfs.h>

// Glibc defines it only under _GNU_SOURCE; the value is part of the kernel's ABI.
#ifndef F_SETPIPE_SZ
#define F_SETPIPE_SZ 1031
#endif
