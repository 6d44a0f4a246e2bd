// nmclient: drives a native-messaging host over pipes, the way a browser does, and times it.
//
// The Python driver (bench/bench.py) decides what to run; this program does the timed loops,
// because a Python loop around fork/exec or a pipe round trip would add more time than the
// fastest hosts take. It checks every reply byte for byte and fails loudly on any mismatch.
//
//   nmclient MODE [options] -- HOST [ARGS...]
//
// Modes:
//   cold  --n N      N times: spawn the host, write one request, read one reply, close stdin,
//                    wait for exit. Per call: time to reply, time to exit, the child's max RSS.
//                    With --warm FILE --warm-expect FILE, a first request is answered before the
//                    clock starts (for the large-frame case: the host is up, then one big frame).
//   rtt   --n N      one host; N requests, one at a time. Per request: time write -> reply.
//   pipe  --n N --window W
//                    one host; N requests with up to W in flight. Total time and the host's CPU.
//   batch --n N      one host; N iterations, each writing every --req at once (--req and
//                    --expect repeat, in pairs) and reading as many replies, matched to the
//                    expected replies in any order. Per iteration: time first write -> last reply.
//
// Request and reply templates are files. "@ID@" in both is replaced by the request's id (a
// decimal integer; 1 in cold mode, 0..N-1 otherwise); "@FILL@" in the request by --fill bytes
// of 'x'. Output is one JSON object on stdout.
//
// --host-cpu C pins the host to CPU C (inherited at spawn); --client-cpu C pins this program.
// --warmup K sends K untimed requests first (rtt and pipe).
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <spawn.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

extern char **environ;

static void die(const char *fmt, const char *arg) {
    fprintf(stderr, "nmclient: ");
    fprintf(stderr, fmt, arg);
    fprintf(stderr, "\n");
    exit(2);
}

static uint64_t now_ns(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

typedef struct {
    char *data;
    size_t len, cap;
} buf_t;

static void buf_reserve(buf_t *b, size_t extra) {
    if (b->len + extra <= b->cap) return;
    size_t cap = b->cap ? b->cap : 4096;
    while (cap < b->len + extra) cap *= 2;
    b->data = realloc(b->data, cap);
    if (!b->data) die("out of memory%s", "");
    b->cap = cap;
}

static void buf_add(buf_t *b, const void *p, size_t n) {
    buf_reserve(b, n);
    memcpy(b->data + b->len, p, n);
    b->len += n;
}

static char *read_file(const char *path, size_t *len) {
    FILE *f = fopen(path, "rb");
    if (!f) die("cannot open %s", path);
    buf_t b = {0};
    char chunk[65536];
    size_t n;
    while ((n = fread(chunk, 1, sizeof chunk, f)) > 0) buf_add(&b, chunk, n);
    fclose(f);
    buf_add(&b, "", 1);  // NUL for strstr; not counted
    *len = b.len - 1;
    return b.data;
}

// A template split around its placeholders: before @ID@, between, after. @FILL@ may appear in a
// request template (once, anywhere, handled by render()).
typedef struct {
    char *text;
    size_t len;
} template_t;

// Appends the template with @ID@ -> id and @FILL@ -> fill bytes of 'x'.
static void render(buf_t *out, const template_t *t, long id, size_t fill) {
    const char *p = t->text, *end = t->text + t->len;
    char digits[32];
    int nd = snprintf(digits, sizeof digits, "%ld", id);
    while (p < end) {
        const char *at = memchr(p, '@', (size_t)(end - p));
        if (!at) { buf_add(out, p, (size_t)(end - p)); break; }
        buf_add(out, p, (size_t)(at - p));
        if ((size_t)(end - at) >= 4 && memcmp(at, "@ID@", 4) == 0) {
            buf_add(out, digits, (size_t)nd);
            p = at + 4;
        } else if ((size_t)(end - at) >= 6 && memcmp(at, "@FILL@", 6) == 0) {
            buf_reserve(out, fill);
            memset(out->data + out->len, 'x', fill);
            out->len += fill;
            p = at + 6;
        } else {
            buf_add(out, at, 1);
            p = at + 1;
        }
    }
}

static void add_frame(buf_t *out, const template_t *t, long id, size_t fill) {
    size_t header_at = out->len;
    uint32_t zero = 0;
    buf_add(out, &zero, 4);
    render(out, t, id, fill);
    uint32_t length = (uint32_t)(out->len - header_at - 4);
    memcpy(out->data + header_at, &length, 4);  // native byte order, as browsers write it
}

typedef struct {
    pid_t pid;
    int to_host;    // host's stdin
    int from_host;  // host's stdout
} host_t;

static int pin(int cpu) {
    if (cpu < 0) return 0;
    cpu_set_t set;
    CPU_ZERO(&set);
    CPU_SET(cpu, &set);
    return sched_setaffinity(0, sizeof set, &set);
}

static host_t spawn_host(char **argv, int host_cpu, int client_cpu) {
    int in[2], out[2];
    if (pipe2(in, O_CLOEXEC) || pipe2(out, O_CLOEXEC)) die("pipe: %s", strerror(errno));
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_adddup2(&fa, in[0], 0);
    posix_spawn_file_actions_adddup2(&fa, out[1], 1);
    if (host_cpu >= 0 && pin(host_cpu)) die("sched_setaffinity: %s", strerror(errno));
    host_t h;
    int rc = posix_spawn(&h.pid, argv[0], &fa, NULL, argv, environ);
    if (rc) die("cannot start the host: %s", strerror(rc));
    if (host_cpu >= 0 || client_cpu >= 0) {
        if (client_cpu >= 0) {
            pin(client_cpu);
        } else {  // back to every CPU
            cpu_set_t all;
            CPU_ZERO(&all);
            for (int c = 0; c < CPU_SETSIZE; c++) CPU_SET(c, &all);
            sched_setaffinity(0, sizeof all, &all);
        }
    }
    posix_spawn_file_actions_destroy(&fa);
    close(in[0]);
    close(out[1]);
    h.to_host = in[1];
    h.from_host = out[0];
    return h;
}

static void write_all(int fd, const char *p, size_t n) {
    while (n > 0) {
        ssize_t w = write(fd, p, n);
        if (w < 0) {
            if (errno == EINTR) continue;
            die("write to the host failed: %s", strerror(errno));
        }
        p += w;
        n -= (size_t)w;
    }
}

// Reads exactly n bytes; returns 0 on success, -1 on end of file first.
static int read_exact(int fd, char *p, size_t n) {
    while (n > 0) {
        ssize_t r = read(fd, p, n);
        if (r < 0) {
            if (errno == EINTR) continue;
            die("read from the host failed: %s", strerror(errno));
        }
        if (r == 0) return -1;
        p += r;
        n -= (size_t)r;
    }
    return 0;
}

// One reply frame into b (body only). Dies on end of file.
static void read_frame(int fd, buf_t *b) {
    uint32_t length;
    if (read_exact(fd, (char *)&length, 4)) die("the host closed stdout instead of replying%s", "");
    b->len = 0;
    buf_reserve(b, length);
    if (read_exact(fd, b->data, length)) die("the host closed stdout mid-frame%s", "");
    b->len = length;
}

static void mismatch(const char *what, const char *got, size_t got_len, const char *want, size_t want_len) {
    fprintf(stderr, "nmclient: %s: reply differs from the expected bytes\n  got  (%zu bytes): %.300s\n  want (%zu bytes): %.300s\n",
            what, got_len, got, want_len, want);
    exit(3);
}

static void check_reply(const char *what, const buf_t *got, const template_t *expect, long id) {
    buf_t want = {0};
    render(&want, expect, id, 0);
    if (got->len != want.len || memcmp(got->data, want.data, want.len) != 0) {
        buf_add((buf_t *)got, "", 1);
        buf_add(&want, "", 1);
        mismatch(what, got->data, got->len - 1, want.data, want.len - 1);
    }
    free(want.data);
}

typedef struct {
    int status;
    struct rusage usage;
} exit_t;

static exit_t finish_host(host_t *h) {
    close(h->to_host);  // end of input: the browser closing the port
    exit_t e;
    // Drain anything left (a well-behaved host writes nothing more) so it cannot block.
    char sink[4096];
    ssize_t r;
    size_t extra = 0;
    while ((r = read(h->from_host, sink, sizeof sink)) != 0) {
        if (r < 0 && errno == EINTR) continue;
        if (r < 0) break;
        extra += (size_t)r;
    }
    close(h->from_host);
    while (wait4(h->pid, &e.status, 0, &e.usage) < 0) {
        if (errno != EINTR) die("wait4: %s", strerror(errno));
    }
    if (extra) {
        fprintf(stderr, "nmclient: the host wrote %zu unexpected bytes after its replies\n", extra);
        exit(3);
    }
    if (!WIFEXITED(e.status) || WEXITSTATUS(e.status) != 0) {
        fprintf(stderr, "nmclient: the host ended with status 0x%x, expected exit 0\n", e.status);
        exit(3);
    }
    return e;
}

static double tv_us(struct timeval tv) { return (double)tv.tv_sec * 1e6 + (double)tv.tv_usec; }

static void print_u64_array(const char *name, const uint64_t *v, long n, int comma) {
    printf("\"%s\":[", name);
    for (long i = 0; i < n; i++) printf("%s%llu", i ? "," : "", (unsigned long long)v[i]);
    printf("]%s", comma ? "," : "");
}

static void print_usage_json(const struct rusage *u) {
    printf("\"host_user_us\":%.0f,\"host_sys_us\":%.0f,\"host_maxrss_kib\":%ld,\"host_ctx_voluntary\":%ld,\"host_ctx_involuntary\":%ld",
           tv_us(u->ru_utime), tv_us(u->ru_stime), u->ru_maxrss, u->ru_nvcsw, u->ru_nivcsw);
}

static template_t load_template(const char *path) {
    template_t t;
    t.text = read_file(path, &t.len);
    return t;
}

int main(int argc, char **argv) {
    if (argc < 2) die("usage: nmclient cold|rtt|pipe [options] -- HOST [ARGS...]%s", "");
    const char *mode = argv[1];
    long n = 1, window = 1, warmup = 0;
    size_t fill = 0;
    int host_cpu = -1, client_cpu = -1;
    const char *req_path = NULL, *expect_path = NULL, *warm_path = NULL, *warm_expect_path = NULL;
    const char *req_paths[64], *expect_paths[64];
    int nreq = 0, nexpect = 0;
    int i = 2;
    for (; i < argc; i++) {
        if (strcmp(argv[i], "--") == 0) { i++; break; }
        if (i + 1 >= argc) die("missing value for %s", argv[i]);
        const char *k = argv[i], *v = argv[++i];
        if (!strcmp(k, "--n")) n = atol(v);
        else if (!strcmp(k, "--window")) window = atol(v);
        else if (!strcmp(k, "--warmup")) warmup = atol(v);
        else if (!strcmp(k, "--fill")) fill = (size_t)atoll(v);
        else if (!strcmp(k, "--req")) { req_path = v; if (nreq < 64) req_paths[nreq++] = v; }
        else if (!strcmp(k, "--expect")) { expect_path = v; if (nexpect < 64) expect_paths[nexpect++] = v; }
        else if (!strcmp(k, "--warm")) warm_path = v;
        else if (!strcmp(k, "--warm-expect")) warm_expect_path = v;
        else if (!strcmp(k, "--host-cpu")) host_cpu = atoi(v);
        else if (!strcmp(k, "--client-cpu")) client_cpu = atoi(v);
        else die("unknown option %s", k);
    }
    if (i >= argc) die("no host command after --%s", "");
    if (!req_path || !expect_path) die("--req and --expect are required%s", "");
    if (n < 1 || window < 1) die("--n and --window must be positive%s", "");
    char **host_argv = argv + i;
    signal(SIGPIPE, SIG_IGN);
    template_t req = load_template(req_path), expect = load_template(expect_path);
    buf_t reply = {0};

    if (!strcmp(mode, "cold")) {
        template_t warm = {0}, warm_expect = {0};
        if (warm_path) {
            if (!warm_expect_path) die("--warm needs --warm-expect%s", "");
            warm = load_template(warm_path);
            warm_expect = load_template(warm_expect_path);
        }
        buf_t frame = {0};
        add_frame(&frame, &req, 1, fill);
        buf_t warm_frame = {0};
        if (warm_path) add_frame(&warm_frame, &warm, 1, 0);
        uint64_t *t_reply = calloc((size_t)n, 8), *t_exit = calloc((size_t)n, 8), *rss = calloc((size_t)n, 8);
        uint64_t *cpu = calloc((size_t)n, 8);
        if (client_cpu >= 0) pin(client_cpu);
        for (long k = 0; k < n; k++) {
            uint64_t t0 = now_ns();
            host_t h = spawn_host(host_argv, host_cpu, client_cpu);
            if (warm_path) {
                write_all(h.to_host, warm_frame.data, warm_frame.len);
                read_frame(h.from_host, &reply);
                check_reply("warm-up request", &reply, &warm_expect, 1);
                t0 = now_ns();
            }
            write_all(h.to_host, frame.data, frame.len);
            read_frame(h.from_host, &reply);
            uint64_t t1 = now_ns();
            exit_t e = finish_host(&h);
            uint64_t t2 = now_ns();
            check_reply("cold call", &reply, &expect, 1);
            t_reply[k] = t1 - t0;
            t_exit[k] = t2 - t0;
            rss[k] = (uint64_t)e.usage.ru_maxrss;
            cpu[k] = (uint64_t)(tv_us(e.usage.ru_utime) + tv_us(e.usage.ru_stime));
        }
        printf("{\"mode\":\"cold\",\"n\":%ld,\"request_bytes\":%zu,", n, frame.len - 4);
        print_u64_array("reply_ns", t_reply, n, 1);
        print_u64_array("exit_ns", t_exit, n, 1);
        print_u64_array("maxrss_kib", rss, n, 1);
        print_u64_array("host_cpu_us", cpu, n, 0);
        printf("}\n");
        return 0;
    }

    if (!strcmp(mode, "rtt")) {
        host_t h = spawn_host(host_argv, host_cpu, client_cpu);
        buf_t frame = {0};
        for (long k = 0; k < warmup; k++) {
            frame.len = 0;
            add_frame(&frame, &req, k, fill);
            write_all(h.to_host, frame.data, frame.len);
            read_frame(h.from_host, &reply);
            check_reply("warm-up request", &reply, &expect, k);
        }
        uint64_t *t = calloc((size_t)n, 8);
        uint64_t start = now_ns();
        for (long k = 0; k < n; k++) {
            long id = warmup + k;
            frame.len = 0;
            add_frame(&frame, &req, id, fill);
            uint64_t t0 = now_ns();
            write_all(h.to_host, frame.data, frame.len);
            read_frame(h.from_host, &reply);
            t[k] = now_ns() - t0;
            check_reply("round trip", &reply, &expect, id);
        }
        uint64_t total = now_ns() - start;
        exit_t e = finish_host(&h);
        printf("{\"mode\":\"rtt\",\"n\":%ld,\"request_bytes\":%zu,\"total_ns\":%llu,", n, frame.len - 4,
               (unsigned long long)total);
        print_usage_json(&e.usage);
        printf(",");
        print_u64_array("rtt_ns", t, n, 0);
        printf("}\n");
        return 0;
    }

    if (!strcmp(mode, "pipe")) {
        long total_requests = warmup + n;
        // Every request frame, back to back, built before the clock starts.
        buf_t all = {0};
        size_t *end_of = calloc((size_t)total_requests + 1, sizeof(size_t));
        for (long k = 0; k < total_requests; k++) {
            add_frame(&all, &req, k, fill);
            end_of[k] = all.len;
        }
        // The expected reply splits around @ID@ into a prefix and a suffix; a reply matches when
        // it is prefix, the decimal id of a request not yet answered, suffix.
        const char *id_at = strstr(expect.text, "@ID@");
        if (!id_at || strstr(id_at + 4, "@ID@")) die("the expected reply needs exactly one @ID@%s", "");
        size_t pre_len = (size_t)(id_at - expect.text);
        const char *suf = id_at + 4;
        size_t suf_len = expect.len - pre_len - 4;
        char *seen = calloc((size_t)total_requests, 1);

        host_t h = spawn_host(host_argv, host_cpu, client_cpu);
        fcntl(h.to_host, F_SETFL, O_NONBLOCK);
        fcntl(h.from_host, F_SETFL, O_NONBLOCK);
        size_t sent_bytes = 0;
        long answered = 0;
        buf_t in = {0};
        size_t in_start = 0;
        uint64_t t0 = 0, t_end = 0;
        if (warmup == 0) t0 = now_ns();
        while (answered < total_requests) {
            // May send every request up to answered + window.
            long may = answered + window;
            if (may > total_requests) may = total_requests;
            size_t limit = end_of[may - 1];
            struct pollfd fds[2] = {{h.from_host, POLLIN, 0}, {h.to_host, POLLOUT, 0}};
            int nfds = sent_bytes < limit ? 2 : 1;
            if (poll(fds, (nfds_t)nfds, 10000) <= 0) die("no progress for 10 s (poll: %s)", errno ? strerror(errno) : "timeout");
            if (nfds == 2 && (fds[1].revents & (POLLOUT | POLLERR))) {
                ssize_t w = write(h.to_host, all.data + sent_bytes, limit - sent_bytes);
                if (w < 0 && errno != EAGAIN && errno != EINTR) die("write to the host failed: %s", strerror(errno));
                if (w > 0) sent_bytes += (size_t)w;
            }
            if (fds[0].revents & (POLLIN | POLLHUP | POLLERR)) {
                if (in_start > 0 && in_start == in.len) { in.len = 0; in_start = 0; }
                if (in_start > (1u << 20)) {
                    memmove(in.data, in.data + in_start, in.len - in_start);
                    in.len -= in_start;
                    in_start = 0;
                }
                buf_reserve(&in, 1 << 16);
                ssize_t r = read(h.from_host, in.data + in.len, in.cap - in.len);
                if (r == 0) die("the host closed stdout with requests unanswered%s", "");
                if (r < 0 && errno != EAGAIN && errno != EINTR) die("read from the host failed: %s", strerror(errno));
                if (r > 0) in.len += (size_t)r;
                while (in.len - in_start >= 4) {
                    uint32_t length;
                    memcpy(&length, in.data + in_start, 4);
                    if (in.len - in_start - 4 < length) break;
                    const char *body = in.data + in_start + 4;
                    // prefix, digits, suffix
                    int ok = length > pre_len + suf_len && memcmp(body, expect.text, pre_len) == 0;
                    long id = -1;
                    if (ok) {
                        size_t d = pre_len, digits_end = length - suf_len;
                        id = 0;
                        if (d == digits_end) ok = 0;
                        for (; ok && d < digits_end; d++) {
                            if (body[d] < '0' || body[d] > '9' || id > total_requests) { ok = 0; break; }
                            id = id * 10 + (body[d] - '0');
                        }
                        ok = ok && memcmp(body + digits_end, suf, suf_len) == 0 && id < total_requests && !seen[id];
                    }
                    if (!ok) {
                        char *copy = strndup(body, length);
                        fprintf(stderr, "nmclient: pipelined reply %ld is not the expected reply to an unanswered request:\n  %.300s\n", answered, copy);
                        exit(3);
                    }
                    seen[id] = 1;
                    answered++;
                    in_start += 4 + length;
                    if (answered == warmup && warmup > 0) t0 = now_ns();
                }
            }
        }
        t_end = now_ns();
        exit_t e = finish_host(&h);
        printf("{\"mode\":\"pipe\",\"n\":%ld,\"window\":%ld,\"request_bytes\":%zu,\"total_ns\":%llu,", n, window,
               end_of[0] - 4, (unsigned long long)(t_end - t0));
        print_usage_json(&e.usage);
        printf("}\n");
        return 0;
    }
    if (!strcmp(mode, "batch")) {
        if (nreq != nexpect) die("--req and --expect must come in pairs%s", "");
        buf_t frames = {0};
        template_t *expects = calloc((size_t)nreq, sizeof(template_t));
        for (int r = 0; r < nreq; r++) {
            template_t t = load_template(req_paths[r]);
            add_frame(&frames, &t, r, fill);
            expects[r] = load_template(expect_paths[r]);
        }
        uint64_t *t = calloc((size_t)n, 8);
        char *matched = calloc((size_t)nreq, 1);
        host_t h = spawn_host(host_argv, host_cpu, client_cpu);
        fcntl(h.to_host, F_SETFL, O_NONBLOCK);
        fcntl(h.from_host, F_SETFL, O_NONBLOCK);
        buf_t in = {0};
        for (long k = 0; k < n; k++) {
            memset(matched, 0, (size_t)nreq);
            size_t sent = 0;
            int answered = 0;
            in.len = 0;
            uint64_t t0 = now_ns();
            while (answered < nreq) {
                struct pollfd fds[2] = {{h.from_host, POLLIN, 0}, {h.to_host, POLLOUT, 0}};
                int nfds = sent < frames.len ? 2 : 1;
                if (poll(fds, (nfds_t)nfds, 60000) <= 0) die("no progress for 60 s%s", "");
                if (nfds == 2 && (fds[1].revents & (POLLOUT | POLLERR))) {
                    ssize_t w = write(h.to_host, frames.data + sent, frames.len - sent);
                    if (w < 0 && errno != EAGAIN && errno != EINTR) die("write to the host failed: %s", strerror(errno));
                    if (w > 0) sent += (size_t)w;
                }
                if (fds[0].revents & (POLLIN | POLLHUP | POLLERR)) {
                    buf_reserve(&in, 1 << 16);
                    ssize_t r = read(h.from_host, in.data + in.len, in.cap - in.len);
                    if (r == 0) die("the host closed stdout with requests unanswered%s", "");
                    if (r < 0 && errno != EAGAIN && errno != EINTR) die("read from the host failed: %s", strerror(errno));
                    if (r > 0) in.len += (size_t)r;
                    for (;;) {
                        uint32_t length;
                        if (in.len < 4) break;
                        memcpy(&length, in.data, 4);
                        if (in.len - 4 < length) break;
                        int found = -1;
                        for (int e = 0; e < nreq && found < 0; e++) {
                            if (!matched[e] && expects[e].len == length && !memcmp(expects[e].text, in.data + 4, length)) found = e;
                        }
                        if (found < 0) {
                            char *copy = strndup(in.data + 4, length);
                            fprintf(stderr, "nmclient: batch reply (%u bytes) matches no expected reply:\n  %.300s\n", length, copy);
                            exit(3);
                        }
                        matched[found] = 1;
                        answered++;
                        memmove(in.data, in.data + 4 + length, in.len - 4 - length);
                        in.len -= 4 + length;
                    }
                }
            }
            t[k] = now_ns() - t0;
        }
        exit_t e = finish_host(&h);
        printf("{\"mode\":\"batch\",\"n\":%ld,\"requests\":%d,\"request_bytes\":%zu,", n, nreq, frames.len - 4 * (size_t)nreq);
        print_usage_json(&e.usage);
        printf(",");
        print_u64_array("iteration_ns", t, n, 0);
        printf("}\n");
        return 0;
    }
    die("unknown mode %s", mode);
}
