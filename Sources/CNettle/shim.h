#include <nettle/pbkdf2.h>
#include <nettle/sha3.h>
