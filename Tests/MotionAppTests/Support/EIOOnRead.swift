import Foundation
import MotionTestSupport

/// A library to preload into a real binary (`LD_PRELOAD`) that makes every `read` and
/// `pread` of one file fail with EIO, as a card with a bad sector does. The file is named
/// by `pathVariable` in the environment; every other file reads as usual. Built with the
/// system's C compiler, once per test run.
enum EIOOnRead {
    static let pathVariable = "MOTIONLOG_TEST_EIO_PATH"

    static var canBuild: Bool { compiler != nil }

    static var compiler: String? {
        ["/usr/bin/cc", "/usr/bin/gcc", "/usr/bin/clang"].first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    static let source = """
        #define _GNU_SOURCE
        #include <dlfcn.h>
        #include <errno.h>
        #include <stdio.h>
        #include <stdlib.h>
        #include <string.h>
        #include <sys/types.h>
        #include <unistd.h>

        static int fails(int fd) {
            const char *want = getenv("\(pathVariable)");
            if (want == NULL) return 0;
            char link[64], path[4096];
            snprintf(link, sizeof link, "/proc/self/fd/%d", fd);
            ssize_t n = readlink(link, path, sizeof path - 1);
            if (n < 0) return 0;
            path[n] = 0;
            return strcmp(path, want) == 0;
        }

        ssize_t read(int fd, void *buf, size_t count) {
            static ssize_t (*real)(int, void *, size_t);
            if (real == NULL) real = (ssize_t (*)(int, void *, size_t))dlsym(RTLD_NEXT, "read");
            if (fails(fd)) { errno = EIO; return -1; }
            return real(fd, buf, count);
        }

        ssize_t pread(int fd, void *buf, size_t count, off_t offset) {
            static ssize_t (*real)(int, void *, size_t, off_t);
            if (real == NULL) real = (ssize_t (*)(int, void *, size_t, off_t))dlsym(RTLD_NEXT, "pread");
            if (fails(fd)) { errno = EIO; return -1; }
            return real(fd, buf, count, offset);
        }

        ssize_t pread64(int fd, void *buf, size_t count, off_t offset) { return pread(fd, buf, count, offset); }
        """

    /// Compiles the library into a scratch folder: its path.
    static func build() throws -> String {
        guard let cc = compiler else { throw CocoaError(.fileNoSuchFile) }
        let dir = ScratchFolder.make("eio")
        try source.write(toFile: dir + "/eio.c", atomically: true, encoding: .utf8)
        let r = try Binary.run(via: cc, ["-shared", "-fPIC", "-O1", "-o", dir + "/eio.so", dir + "/eio.c", "-ldl"])
        guard r.status == 0 else {
            throw CocoaError(.fileWriteUnknown, userInfo: [NSLocalizedDescriptionKey: "cc failed: \(r.stderr)"])
        }
        return dir + "/eio.so"
    }
}
