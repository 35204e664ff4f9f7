/*
 * Runs a command and reports its peak resident memory exactly.
 *
 * Why not wait4() from the benchmark itself: posix_spawn starts the child with vfork
 * semantics, so until exec the child shares the parent's memory, and Linux carries that
 * high-water mark across exec into the child's ru_maxrss. A 40 MB benchmark process would
 * make every child look at least 40 MB large. This launcher is small, and it fork()s the
 * command, so the command's ru_maxrss starts from this launcher's ~1 MB.
 *
 * While the command runs, /proc/PID/status is read every 20 ms for the split between
 * anonymous memory (heap, buffers) and file-backed memory (mapped libraries).
 *
 * usage: peak_rss RESULT_JSON COMMAND [ARGS...]
 * The command's stdout and stderr pass through; the exit status is the command's.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static long status_field(const char *text, const char *name) {
    const char *p = strstr(text, name);
    return p ? strtol(p + strlen(name), NULL, 10) : -1;
}

int main(int argc, char **argv) {
    if (argc < 3) {
        fprintf(stderr, "usage: %s RESULT_JSON COMMAND [ARGS...]\n", argv[0]);
        return 2;
    }
    pid_t pid = fork();
    if (pid < 0) { perror("peak_rss: fork"); return 1; }
    if (pid == 0) {
        execvp(argv[2], argv + 2);
        fprintf(stderr, "peak_rss: cannot run %s: %s\n", argv[2], strerror(errno));
        _exit(127);
    }
    char path[64];
    snprintf(path, sizeof path, "/proc/%d/status", (int)pid);
    long max_anon = 0, max_file = 0, max_rss_seen = 0, samples = 0;
    int status = 0;
    struct rusage ru;
    for (;;) {
        pid_t r = wait4(pid, &status, WNOHANG, &ru);
        if (r == pid) break;
        if (r < 0 && errno != EINTR) { perror("peak_rss: wait4"); return 1; }
        FILE *f = fopen(path, "r");
        if (f) {
            char text[4096];
            size_t n = fread(text, 1, sizeof text - 1, f);
            fclose(f);
            text[n] = 0;
            long anon = status_field(text, "RssAnon:"), file = status_field(text, "RssFile:");
            long rss = status_field(text, "VmRSS:");
            if (anon > max_anon) max_anon = anon;
            if (file > max_file) max_file = file;
            if (rss > max_rss_seen) max_rss_seen = rss;
            samples++;
        }
        struct timespec ts = { 0, 20 * 1000 * 1000 };
        nanosleep(&ts, NULL);
    }
    FILE *out = fopen(argv[1], "w");
    if (!out) { fprintf(stderr, "peak_rss: cannot write %s: %s\n", argv[1], strerror(errno)); return 1; }
    fprintf(out, "{\"maxRSSKB\":%ld,\"sampledMaxRSSKB\":%ld,\"sampledMaxAnonKB\":%ld,\"sampledMaxFileKB\":%ld,\"samples\":%ld}\n",
            ru.ru_maxrss, max_rss_seen, max_anon, max_file, samples);
    fclose(out);
    if (WIFEXITED(status)) return WEXITSTATUS(status);
    return 128 + WTERMSIG(status);
}
