/*
 * The C writer baseline: the same rows as motionlog's writer, formatted with
 * snprintf("%.17g") (the usual way to print a double that reads back exactly) into a
 * 256 KiB buffer that is written with write(2) when full, as motionlog's writer does.
 *
 * usage: csv_writer ROWS_FILE OUT_PATH REPETITIONS
 *   ROWS_FILE: 88-byte little-endian records: u8 source letter, u8 label letter,
 *   6 bytes padding, f64 when, 9 x f64 values (A/G/M use the first 3, D/L all 9).
 * Only formatting and writing are timed (not reading the rows). Prints one JSON object.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

struct row {
    uint8_t source;
    uint8_t label;
    uint8_t pad[6];
    double when;
    double v[9];
};

#define CHUNK (256 * 1024)
#define ROOM_NEEDED 512

static double now_s(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static int write_all(int fd, const char *p, size_t n) {
    while (n > 0) {
        ssize_t w = write(fd, p, n);
        if (w < 0) {
            if (errno == EINTR) continue;
            return -1;
        }
        p += w;
        n -= (size_t)w;
    }
    return 0;
}

int main(int argc, char **argv) {
    if (argc < 4) {
        fprintf(stderr, "usage: %s ROWS_FILE OUT_PATH REPETITIONS\n", argv[0]);
        return 2;
    }
    FILE *in = fopen(argv[1], "rb");
    if (!in) { fprintf(stderr, "csv_writer: cannot open %s: %s\n", argv[1], strerror(errno)); return 1; }
    struct stat st;
    if (fstat(fileno(in), &st) != 0 || st.st_size % (off_t)sizeof(struct row) != 0) {
        fprintf(stderr, "csv_writer: %s is not a whole number of %zu-byte rows\n", argv[1], sizeof(struct row));
        return 1;
    }
    size_t count = (size_t)st.st_size / sizeof(struct row);
    struct row *rows = malloc(count * sizeof(struct row));
    if (!rows || fread(rows, sizeof(struct row), count, in) != count) {
        fprintf(stderr, "csv_writer: cannot read %s\n", argv[1]);
        return 1;
    }
    fclose(in);
    int reps = atoi(argv[3]);
    char *buf = malloc(CHUNK + ROOM_NEEDED);
    if (!buf) return 1;

    printf("{\"rows\":%zu,\"seconds\":[", count);
    for (int r = 0; r < reps; r++) {
        int fd = open(argv[2], O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
        if (fd < 0) { fprintf(stderr, "csv_writer: cannot open %s: %s\n", argv[2], strerror(errno)); return 1; }
        size_t used = 0;
        double t0 = now_s();
        for (size_t i = 0; i < count; i++) {
            const struct row *w = &rows[i];
            int n;
            if (w->source == 'D' || w->source == 'L') {
                n = snprintf(buf + used, ROOM_NEEDED,
                             "%c,%c,%.17g,%.17g,%.17g,%.17g,%.17g,%.17g,%.17g,%.17g,%.17g,%.17g\n",
                             w->source, w->label, w->when, w->v[0], w->v[1], w->v[2], w->v[3], w->v[4],
                             w->v[5], w->v[6], w->v[7], w->v[8]);
            } else {
                n = snprintf(buf + used, ROOM_NEEDED, "%c,%c,%.17g,%.17g,%.17g,%.17g\n",
                             w->source, w->label, w->when, w->v[0], w->v[1], w->v[2]);
            }
            used += (size_t)n;
            if (used >= CHUNK) {
                if (write_all(fd, buf, used) != 0) { fprintf(stderr, "csv_writer: write: %s\n", strerror(errno)); return 1; }
                used = 0;
            }
        }
        if (used > 0 && write_all(fd, buf, used) != 0) { fprintf(stderr, "csv_writer: write: %s\n", strerror(errno)); return 1; }
        double t1 = now_s();
        close(fd);
        printf("%s%.9f", r ? "," : "", t1 - t0);
    }
    printf("]}\n");
    free(buf);
    free(rows);
    return 0;
}
