import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Folders for tests, all inside one folder per test process
/// (`$TMPDIR/motionlog-tests-<pid>`) that is removed when the process exits, so a run of
/// `make test` leaves nothing behind in `/tmp` (a tmpfs, in RAM, on a Raspberry Pi).
/// Folders left by runs that were killed are removed by the next run.
public enum ScratchFolder {
    /// A new, empty folder named `<prefix>-<UUID>` inside this process's scratch folder.
    public static func make(_ prefix: String) -> String {
        let path = root + "/\(prefix)-\(UUID().uuidString)"
        try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    static let namePrefix = "motionlog-tests-"

    /// This process's scratch folder, made (and its removal at exit registered) on first use.
    public static let root: String = {
        let temporary = NSTemporaryDirectory()
        removeAbandoned(in: temporary)
        let path = temporary + namePrefix + "\(getpid())"
        try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        atexit { ScratchFolder.removeRoot() }
        return path
    }()

    static func removeRoot() {
        makeRemovable(root)
        try? FileManager.default.removeItem(atPath: root)
    }

    /// Scratch folders of processes that no longer run.
    static func removeAbandoned(in temporary: String) {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: temporary)) ?? []
        for name in names where name.hasPrefix(namePrefix) {
            guard let pid = Int32(name.dropFirst(namePrefix.count)), pid != getpid(),
                  kill(pid, 0) != 0, errno == ESRCH else { continue }
            makeRemovable(temporary + name)
            try? FileManager.default.removeItem(atPath: temporary + name)
        }
    }

    /// Tests make folders read-only on purpose; give the owner write access back so the
    /// folder can be removed when the tests do not run as root.
    static func makeRemovable(_ path: String) {
        guard let walker = FileManager.default.enumerator(atPath: path) else { return }
        chmod(path, 0o700)
        while let name = walker.nextObject() as? String {
            var info = stat()
            let full = path + "/" + name
            if lstat(full, &info) == 0 && (info.st_mode & S_IFMT) == S_IFDIR { chmod(full, 0o700) }
        }
    }
}
