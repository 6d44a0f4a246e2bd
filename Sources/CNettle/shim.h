#include <nettle/pbkdf2.h>
