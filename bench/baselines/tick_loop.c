/*
 * The scheduler floor: the least a fixed-rate sampling loop can do on Linux.
 * It sleeps to absolute CLOCK_MONOTONIC deadlines with clock_nanosleep(TIMER_ABSTIME)
 * and notes how late it woke up; no sensor, no rows, no writer.
 *
 * The overrun rule is motionlog's: a wake-up more than one period late is an overrun;
 * every tick whose deadline has passed is skipped, and sampling resumes at the next one.
 *
 * usage: tick_loop RATE_HZ SECONDS SAMPLES_OUT [fifo]
 *   SAMPLES_OUT receives one little-endian int64 (lateness, ns) per tick taken.
 *   "fifo" asks for SCHED_FIFO priority 50, as motionlog's sampling thread does.
 * Prints one JSON object on stdout, including the CPU time from the first tick to the
 * last (what sleeping and waking alone cost).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <time.h>

#define NS_PER_S 1000000000LL

static int64_t clock_ns(clockid_t id) {
    struct timespec ts;
    clock_gettime(id, &ts);
    return (int64_t)ts.tv_sec * NS_PER_S + ts.tv_nsec;
}

static int64_t monotonic_ns(void) { return clock_ns(CLOCK_MONOTONIC); }

/* Nanoseconds from tick 0 to tick k, exact integer arithmetic (as TickTimeline). */
static int64_t offset_ns(int64_t k, int64_t rate) {
    return (k / rate) * NS_PER_S + ((k % rate) * NS_PER_S) / rate;
}

int main(int argc, char **argv) {
    if (argc < 4) {
        fprintf(stderr, "usage: %s RATE_HZ SECONDS SAMPLES_OUT [fifo]\n", argv[0]);
        return 2;
    }
    int64_t rate = atoll(argv[1]);
    double seconds = atof(argv[2]);
    const char *out_path = argv[3];
    int want_fifo = argc > 4 && strcmp(argv[4], "fifo") == 0;
    if (rate < 1 || seconds <= 0) {
        fprintf(stderr, "tick_loop: rate and seconds must be positive\n");
        return 2;
    }

    const char *policy = "SCHED_OTHER";
    int slack_ok = prctl(PR_SET_TIMERSLACK, 1UL, 0UL, 0UL, 0UL) == 0;
    if (want_fifo) {
        struct sched_param param = { .sched_priority = 50 };
        int rc = pthread_setschedparam(pthread_self(), SCHED_FIFO, &param);
        if (rc == 0) policy = "SCHED_FIFO";
        else fprintf(stderr, "tick_loop: SCHED_FIFO refused: %s\n", strerror(rc));
    }

    int64_t total = (int64_t)(seconds * (double)rate + 0.5);
    int64_t *samples = calloc((size_t)total, sizeof(int64_t));
    if (!samples) {
        fprintf(stderr, "tick_loop: out of memory for %lld samples\n", (long long)total);
        return 1;
    }
    memset(samples, 0, (size_t)total * sizeof(int64_t)); /* fault the pages in now */

    int64_t period = NS_PER_S / rate;
    int64_t start = monotonic_ns() + 20 * 1000 * 1000;
    int64_t next = 0, taken = 0, overruns = 0, missed = 0, max_late = 0;
    int64_t cpu_first = -1, wall_first = 0;
    while (next < total) {
        int64_t deadline = start + offset_ns(next, rate);
        struct timespec ts = { .tv_sec = deadline / NS_PER_S, .tv_nsec = deadline % NS_PER_S };
        while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL) == EINTR) {}
        int64_t woke = monotonic_ns();
        int64_t late = woke - deadline;
        if (late > period) {
            int64_t resume = next + 1;
            while (start + offset_ns(resume, rate) <= woke) resume++;
            if (resume > total) resume = total;
            overruns++;
            missed += resume - next;
            next = resume;
            continue;
        }
        if (cpu_first < 0) { cpu_first = clock_ns(CLOCK_PROCESS_CPUTIME_ID); wall_first = woke; }
        samples[taken++] = late;
        if (late > max_late) max_late = late;
        next++;
    }

    double cpu_s = cpu_first < 0 ? 0 : (double)(clock_ns(CLOCK_PROCESS_CPUTIME_ID) - cpu_first) / 1e9;
    double wall_s = cpu_first < 0 ? 0 : (double)(monotonic_ns() - wall_first) / 1e9;

    FILE *f = fopen(out_path, "wb");
    if (!f || fwrite(samples, sizeof(int64_t), (size_t)taken, f) != (size_t)taken || fclose(f) != 0) {
        fprintf(stderr, "tick_loop: cannot write %s: %s\n", out_path, strerror(errno));
        return 1;
    }
    free(samples);
    printf("{\"ticks\":%lld,\"overruns\":%lld,\"missedTicks\":%lld,\"maxLatenessNanos\":%lld,"
           "\"policy\":\"%s\",\"timerSlack1ns\":%s,\"cpuSeconds\":%.6f,\"wallSeconds\":%.6f}\n",
           (long long)taken, (long long)overruns, (long long)missed, (long long)max_late,
           policy, slack_ok ? "true" : "false", cpu_s, wall_s);
    return 0;
}
