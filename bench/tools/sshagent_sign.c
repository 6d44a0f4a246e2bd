// sshagent_sign: the other side of the ssh-agent comparison. Asks an ssh-agent to sign the same
// data N times on one connection, one request at a time, as `nmclient rtt` asks a host, and
// times each request (write to reply read) with a monotonic nanosecond clock.
//
//   sshagent_sign SOCKET KEY_BLOB_FILE DATA_FILE N WARMUP
//
// KEY_BLOB_FILE holds the public key blob (the base64 field of a .pub file, decoded). Every
// reply must be SSH2_AGENT_SIGN_RESPONSE and equal to the first (Ed25519 is deterministic), so
// one verification of the first, which the driver makes, covers all. Prints JSON: "rtt_ns" and
// "reply_hex" (the first reply's payload). Build: cc -O2 -o sshagent_sign sshagent_sign.c
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

static void die(const char *what) { perror(what); exit(1); }

static unsigned char *slurp(const char *path, size_t *len) {
    FILE *f = fopen(path, "rb");
    if (!f) die(path);
    unsigned char *buf = NULL;
    size_t cap = 0, n = 0, got;
    do {
        if (n == cap) { cap = cap ? cap * 2 : 4096; buf = realloc(buf, cap); if (!buf) die("realloc"); }
        got = fread(buf + n, 1, cap - n, f);
        n += got;
    } while (got > 0);
    fclose(f);
    *len = n;
    return buf;
}

static void put32(unsigned char *p, uint32_t v) { p[0] = v >> 24; p[1] = v >> 16; p[2] = v >> 8; p[3] = v; }

static void full_write(int fd, const unsigned char *p, size_t n) {
    while (n) { ssize_t w = write(fd, p, n); if (w <= 0) die("write"); p += w; n -= (size_t)w; }
}

static void full_read(int fd, unsigned char *p, size_t n) {
    while (n) { ssize_t r = read(fd, p, n); if (r <= 0) die("read"); p += r; n -= (size_t)r; }
}

static uint64_t now_ns(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (uint64_t)t.tv_sec * 1000000000u + (uint64_t)t.tv_nsec;
}

int main(int argc, char **argv) {
    if (argc != 6) { fprintf(stderr, "usage: sshagent_sign SOCKET KEY_BLOB_FILE DATA_FILE N WARMUP\n"); return 64; }
    size_t blob_len, data_len;
    unsigned char *blob = slurp(argv[2], &blob_len), *data = slurp(argv[3], &data_len);
    long n = atol(argv[4]), warmup = atol(argv[5]);

    // SSH2_AGENTC_SIGN_REQUEST (13): string key blob, string data, uint32 flags.
    size_t body = 1 + 4 + blob_len + 4 + data_len + 4, at = 0;
    unsigned char *req = malloc(4 + body);
    if (!req) die("malloc");
    put32(req, (uint32_t)body); at = 4;
    req[at++] = 13;
    put32(req + at, (uint32_t)blob_len); at += 4; memcpy(req + at, blob, blob_len); at += blob_len;
    put32(req + at, (uint32_t)data_len); at += 4; memcpy(req + at, data, data_len); at += data_len;
    put32(req + at, 0); at += 4;

    int fd = socket(AF_UNIX, SOCK_STREAM, 0);
    if (fd < 0) die("socket");
    struct sockaddr_un addr = {.sun_family = AF_UNIX};
    if (strlen(argv[1]) >= sizeof addr.sun_path) { fprintf(stderr, "socket path too long\n"); return 1; }
    strcpy(addr.sun_path, argv[1]);
    if (connect(fd, (struct sockaddr *)&addr, sizeof addr) != 0) die("connect");

    uint64_t *samples = calloc((size_t)(n > 0 ? n : 1), sizeof *samples);
    unsigned char *first = NULL, head[4], *reply = NULL;
    size_t first_len = 0, reply_cap = 0;
    for (long i = -warmup; i < n; i++) {
        uint64_t t0 = now_ns();
        full_write(fd, req, 4 + body);
        full_read(fd, head, 4);
        size_t len = ((size_t)head[0] << 24) | ((size_t)head[1] << 16) | ((size_t)head[2] << 8) | head[3];
        if (len == 0 || len > 1 << 20) { fprintf(stderr, "bad reply length %zu\n", len); return 1; }
        if (len > reply_cap) { reply_cap = len; reply = realloc(reply, len); if (!reply) die("realloc"); }
        full_read(fd, reply, len);
        uint64_t t1 = now_ns();
        if (reply[0] != 14) { fprintf(stderr, "the agent answered %d, not SSH2_AGENT_SIGN_RESPONSE\n", reply[0]); return 1; }
        if (!first) {
            first = malloc(len); if (!first) die("malloc");
            memcpy(first, reply, len); first_len = len;
        } else if (len != first_len || memcmp(first, reply, len) != 0) {
            fprintf(stderr, "reply %ld differs from the first\n", i); return 1;
        }
        if (i >= 0) samples[i] = t1 - t0;
    }
    printf("{\"rtt_ns\": [");
    for (long i = 0; i < n; i++) printf("%s%llu", i ? ", " : "", (unsigned long long)samples[i]);
    printf("], \"reply_hex\": \"");
    for (size_t i = 0; i < first_len; i++) printf("%02x", first[i]);
    printf("\"}\n");
    return 0;
}
