// Linux interfaces that Swift's Glibc module leaves out.
#include <sys/signalfd.h>
