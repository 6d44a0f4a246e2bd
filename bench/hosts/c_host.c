// The C reference host: the practical floor for a process that reads a frame and writes one.
//
// It answers the benchmark's requests with exactly the bytes wallet-bridge sends, loops until
// end of input, and caps frames like wallet-bridge does. It does NOT validate JSON: it finds
// the members it needs by scanning for them, which is correct for the requests the benchmark
// sends and nothing more. That is the point: it measures process start, pipe I/O and one pass
// over the bytes, not a parser. Build: cc -O2 -o c_host c_host.c
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define MAX_INBOUND (64u * 1024u * 1024u)
#define MAX_OUTBOUND 1048576u

// The conformance host's two test accounts (public keys of seeds 0x01 x 32 and 0x02 x 32).
static const char ADDRESSES[] =
    "[\"iojj3XQJ8ZX9UtstPLpdcspnCb8dlBIb83SIAbQPb1w=\",\"gTl3Dqh9F19Wo1Rmw0x+zMuNipG07jeiXfYPW4/Js5Q=\"]";

static char *out;
static size_t out_len, out_cap;

static void out_add(const void *p, size_t n) {
    if (out_len + n > out_cap) {
        while (out_len + n > out_cap) out_cap = out_cap ? out_cap * 2 : 4096;
        out = realloc(out, out_cap);
        if (!out) exit(70);
    }
    memcpy(out + out_len, p, n);
    out_len += n;
}
static void out_str(const char *s) { out_add(s, strlen(s)); }

static int read_exact(char *p, size_t n) {
    size_t got = 0;
    while (got < n) {
        ssize_t r = read(0, p + got, n - got);
        if (r < 0 && errno == EINTR) continue;
        if (r <= 0) return got == 0 ? 0 : -1;
        got += (size_t)r;
    }
    return 1;
}

// Header and body in one write, as wallet-bridge does.
static void send_frame(void) {
    uint32_t length = (uint32_t)(out_len - 4);
    memcpy(out, &length, 4);
    size_t done = 0;
    while (done < out_len) {
        ssize_t w = write(1, out + done, out_len - done);
        if (w < 0 && errno == EINTR) continue;
        if (w <= 0) exit(0);  // the reader went away
        done += (size_t)w;
    }
}

// Where the value of "key": starts, or NULL.
static const char *member(const char *body, size_t len, const char *key) {
    size_t klen = strlen(key);
    for (const char *p = body; p + klen <= body + len; p++) {
        p = memchr(p, key[0], (size_t)(body + len - p));
        if (!p || p + klen > body + len) return NULL;
        if (memcmp(p, key, klen) == 0) return p + klen;
    }
    return NULL;
}

// End of the JSON string starting at p (on its opening quote): the closing quote.
static const char *string_end(const char *p, const char *end) {
    for (p++; p < end; p++) {
        if (*p == '\\') p++;
        else if (*p == '"') return p;
    }
    return NULL;
}

// Bytes of the decoded UTF-8 string between q (opening quote) and its closing quote.
static long decoded_length(const char *q, const char *end) {
    long n = 0;
    for (const char *p = q + 1; p < end; p++) {
        if (*p == '"') return n;
        if (*p != '\\') { n++; continue; }
        p++;
        if (p >= end) return -1;
        if (*p != 'u') { n++; continue; }
        if (end - p < 5) return -1;
        unsigned v = (unsigned)strtoul((char[]){p[1], p[2], p[3], p[4], 0}, NULL, 16);
        p += 4;
        if (v >= 0xD800 && v <= 0xDBFF) { n += 4; p += 6; }  // a surrogate pair: 4 bytes
        else n += v < 0x80 ? 1 : v < 0x800 ? 2 : 3;
    }
    return -1;
}

static void begin_reply(const char *id, size_t id_len) {
    out_len = 0;
    out_add("\0\0\0\0", 4);
    out_str("{\"jsonrpc\":\"2.0\",\"id\":");
    out_add(id, id_len);
}

static void error_reply(const char *id, size_t id_len, const char *code, const char *data, const char *message) {
    begin_reply(id, id_len);
    out_str(",\"error\":{\"code\":");
    out_str(code);
    out_str(",\"data\":");
    out_str(data);
    out_str(",\"message\":\"");
    out_str(message);
    out_str("\"}}");
}

static void handle(const char *body, size_t len) {
    const char *end = body + len;
    const char *id = member(body, len, "\"id\":");
    size_t id_len = 4;
    if (!id) id = "null";
    else if (*id == '"') id_len = (size_t)(string_end(id, end) - id) + 1;
    else id_len = strcspn(id, ",}");  // number or null; the body is followed by a NUL
    const char *m = member(body, len, "\"method\":\"");
    const char *m_end = m ? string_end(m - 1, end) : NULL;
    size_t m_len = m_end ? (size_t)(m_end - m) : 0;
    const char *params = member(body, len, "\"params\":");

    if (m_len == 26 && !memcmp(m, "NATIVE_GET_ACCOUNTS_METHOD", 26)) {
        begin_reply(id, id_len);
        out_str(",\"result\":{\"addresses\":");
        out_str(ADDRESSES);
        out_str("}}");
    } else if (m_len == 12 && !memcmp(m, "test.measure", 12) && params) {
        const char *data = member(params, (size_t)(end - params), "\"data\":");
        long n = data && *data == '"' ? decoded_length(data, end) : -1;
        char number[32];
        snprintf(number, sizeof number, "%ld", n);
        begin_reply(id, id_len);
        out_str(",\"result\":{\"bytes\":");
        out_str(number);
        out_str("}}");
    } else if (m_len == 9 && !memcmp(m, "test.echo", 9) && params) {
        // The params value as sent: from after "params": to the request's closing brace (the
        // benchmark puts params last and sends no whitespace).
        size_t params_len = (size_t)(end - params) - 1;
        begin_reply(id, id_len);
        if (out_len - 4 + 10 + params_len + 1 > MAX_OUTBOUND) {
            char data[96];
            snprintf(data, sizeof data, "{\"bytes\":%zu,\"limit\":%u}", out_len - 4 + 10 + params_len + 1, MAX_OUTBOUND);
            error_reply(id, id_len, "-32000", data, "Response too large");
        } else {
            out_str(",\"result\":");
            out_add(params, params_len);
            out_str("}");
        }
    } else if (m_len == 10 && !memcmp(m, "test.large", 10) && params) {
        const char *b = member(params, (size_t)(end - params), "\"bytes\":");
        long n = b ? atol(b) : 0;
        begin_reply(id, id_len);
        out_str(",\"result\":\"");
        if (out_len + (size_t)n + 2 - 4 > MAX_OUTBOUND) {
            // The reply would not fit a frame: answer the same error wallet-bridge does.
            char data[96];
            snprintf(data, sizeof data, "{\"bytes\":%zu,\"limit\":%u}", out_len + (size_t)n + 2 - 4, MAX_OUTBOUND);
            error_reply(id, id_len, "-32000", data, "Response too large");
        } else {
            if (out_len + (size_t)n + 2 > out_cap) {
                out_cap = out_len + (size_t)n + 2;
                out = realloc(out, out_cap);
                if (!out) exit(70);
            }
            memset(out + out_len, 'x', (size_t)n);
            out_len += (size_t)n;
            out_str("\"}");
        }
    } else {
        char data[200];
        snprintf(data, sizeof data, "{\"problem\":\"no method named \\\"%.*s\\\"\"}", (int)(m_len > 128 ? 128 : m_len), m ? m : "");
        error_reply(id, id_len, "-32601", data, "Method not found");
    }
    send_frame();
}

int main(void) {
    char *body = NULL;
    size_t cap = 0;
    for (;;) {
        uint32_t length;
        int r = read_exact((char *)&length, 4);
        if (r == 0) return 0;  // end of input: the port closed
        if (r < 0) return 0;
        if (length > MAX_INBOUND) {
            error_reply("null", 4, "-32004", "{\"problem\":\"frame too large\"}", "Request too large");
            send_frame();
            return 1;
        }
        if (length + 1 > cap) {
            cap = length + 1;
            free(body);
            body = malloc(cap);
            if (!body) return 70;
        }
        if (read_exact(body, length) != 1) return 0;
        body[length] = 0;
        handle(body, length);
    }
}
