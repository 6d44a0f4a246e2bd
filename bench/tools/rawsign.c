// rawsign: libsodium's own Ed25519 signing rate, the ceiling for the SignPayloads benchmark.
//
//   rawsign PAYLOADS_FILE PAYLOAD_BYTES ROUNDS
//
// Signs every payload in the file (consecutive PAYLOAD_BYTES-byte payloads) with the key from
// seed 0x01 x 32 (the conformance host's first test account) using crypto_sign_detached, ROUNDS
// times, timing each round. Prints JSON: per-round nanoseconds and the SHA-256 of the
// signatures of one round, so the driver can check the host produced the very same signatures.
#include <sodium.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static uint64_t now_ns(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

int main(int argc, char **argv) {
    if (argc != 4) {
        fprintf(stderr, "usage: rawsign PAYLOADS_FILE PAYLOAD_BYTES ROUNDS\n");
        return 2;
    }
    if (sodium_init() < 0) return 2;
    size_t size = (size_t)atol(argv[2]);
    long rounds = atol(argv[3]);
    FILE *f = fopen(argv[1], "rb");
    if (!f || size == 0 || rounds < 1) {
        fprintf(stderr, "rawsign: bad arguments\n");
        return 2;
    }
    fseek(f, 0, SEEK_END);
    long file_bytes = ftell(f);
    fseek(f, 0, SEEK_SET);
    size_t count = (size_t)file_bytes / size;
    unsigned char *payloads = malloc((size_t)file_bytes);
    if (fread(payloads, 1, (size_t)file_bytes, f) != (size_t)file_bytes) return 2;
    fclose(f);

    unsigned char seed[crypto_sign_SEEDBYTES], pk[crypto_sign_PUBLICKEYBYTES], sk[crypto_sign_SECRETKEYBYTES];
    memset(seed, 1, sizeof seed);
    crypto_sign_seed_keypair(pk, sk, seed);

    unsigned char *signatures = malloc(count * crypto_sign_BYTES);
    uint64_t *ns = calloc((size_t)rounds, 8);
    for (long r = 0; r < rounds; r++) {
        uint64_t t0 = now_ns();
        for (size_t i = 0; i < count; i++) {
            crypto_sign_detached(signatures + i * crypto_sign_BYTES, NULL, payloads + i * size, size, sk);
        }
        ns[r] = now_ns() - t0;
    }
    unsigned char digest[crypto_hash_sha256_BYTES];
    crypto_hash_sha256(digest, signatures, count * crypto_sign_BYTES);
    printf("{\"payloads\":%zu,\"payload_bytes\":%zu,\"signatures_sha256\":\"", count, size);
    for (size_t i = 0; i < sizeof digest; i++) printf("%02x", digest[i]);
    printf("\",\"round_ns\":[");
    for (long r = 0; r < rounds; r++) printf("%s%llu", r ? "," : "", (unsigned long long)ns[r]);
    printf("]}\n");
    return 0;
}
