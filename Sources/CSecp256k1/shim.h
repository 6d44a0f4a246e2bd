#include <secp256k1.h>
#include <secp256k1_recovery.h>

/* The library's static context, through a function: Swift 6 refuses to read a C global
   variable, which it cannot prove is not written concurrently. */
static inline const secp256k1_context *wallet_bridge_secp256k1_static_context(void) {
    return secp256k1_context_static;
}
