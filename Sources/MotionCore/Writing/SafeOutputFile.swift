import MotionSystem
import Synchronization
import SystemPackage

/// Why a command will not write (or could not write) a file: what, where, what to do.
public struct SafeOutputError: Error, Sendable, CustomStringConvertible {
    public enum Kind: Sendable, Equatable {
        /// The output is one of the command's inputs (same device and inode).
        case wouldReplaceInput(input: String)
        /// The output exists and overwriting was not asked for.
        case exists
        /// The output names a folder (or another non-regular file).
        case notAFile
        /// A system call failed.
        case system(operation: String, errno: Errno?)
    }
    public var path: String
    public var kind: Kind

    public var description: String {
        switch kind {
        case .wouldReplaceInput(let input):
            let same = input == path ? "" : " (it is the same file as \(input))"
            return "\(path) is an input of this command\(same): refusing to write over it — choose another output name (-o)"
        case .exists:
            return "\(path) exists: pass --force to replace it, or choose another output name (-o)"
        case .notAFile:
            return "\(path) is a folder or a special file, not a file to write: give a file name (-o FOLDER/NAME)"
        case .system(let operation, let errno):
            var text = "cannot \(operation) \(path)"
            if let errno { text += ": \(errno)" }
            switch errno {
            case .noSuchFileOrDirectory?: text += " — the folder does not exist: create it first or choose another"
            case .permissionDenied?, .notPermitted?: text += " — you may not write in that folder: choose another one, or fix its permissions"
            case .noSpace?: text += " — the file system is full: free some space; nothing was replaced"
            case .readOnlyFileSystem?: text += " — the file system is read-only: choose another folder"
            case .ioError?: text += " — the storage reported an I/O error: the card or disk may be failing"
            case .notDirectory?: text += " — a part of the path is a file, not a folder"
            case .fileTooLarge?: text += " — larger than the largest file this file system (or a ulimit -f) allows (FAT32: 4 GiB): write it to an exFAT or ext4 disk; nothing was replaced"
            default: break
            }
            return text
        }
    }
}

/// A file a command writes (`export -o`, `fuse`'s CSV and metadata, `calibrate`'s config):
///
/// - never one of the command's inputs: compared by device and inode, so another spelling
///   of the path, a hard link or a symlink to an input is refused too;
/// - never over an existing file unless `overwrite` (`--force`) is given;
/// - never half-written: the bytes go to a temporary file created exclusively (`O_EXCL`,
///   `O_NOFOLLOW`) in the target's folder, which is fsync-ed and renamed over the target
///   only by `commit()`; `discard()` (or deinit without commit) removes it. Without
///   `overwrite` the rename refuses to replace a file that appeared meanwhile.
public final class SafeOutputFile {
    /// The file's identity on disk.
    public struct Identity: Equatable, Sendable {
        public var device: UInt64
        public var inode: UInt64
    }

    public let path: String
    public private(set) var temporaryPath: String
    public private(set) var bytesWritten: Int64 = 0
    private let overwrite: Bool
    private var file: DiskFile?
    private var committed = false

    /// The device and inode behind `path` (symlinks followed), nil when there is none.
    public static func identity(of path: String) -> Identity? {
        guard let st = try? FileSystem.status(path) else { return nil }
        return Identity(device: st.device, inode: st.inode)
    }

    /// The device and inode behind an open descriptor (e.g. standard output).
    public static func identity(ofDescriptor fd: Int32) -> Identity? {
        guard let st = try? FileDescriptor(rawValue: fd).status(), st.kind == .regular else { return nil }
        return Identity(device: st.device, inode: st.inode)
    }

    /// Which of `inputs` is the same file as `path`, if any.
    public static func input(among inputs: [String], sameAs path: String) -> String? {
        guard let target = identity(of: path) else { return nil }
        return inputs.first { identity(of: $0) == target }
    }

    /// Checks `path` against `inputs` and (without `overwrite`) existing files, without
    /// creating anything: for commands that write several files and must refuse before
    /// writing the first.
    public static func check(_ path: String, inputs: [String], overwrite: Bool) throws(SafeOutputError) {
        if let input = input(among: inputs, sameAs: path) {
            throw SafeOutputError(path: path, kind: .wouldReplaceInput(input: input))
        }
        if let st = try? FileSystem.status(path, followLinks: false) {
            if st.kind != .regular && st.kind != .symbolicLink { throw SafeOutputError(path: path, kind: .notAFile) }
            if !overwrite { throw SafeOutputError(path: path, kind: .exists) }
        }
    }

    /// Checks `path` (see `check`) and creates the temporary file beside it, with the
    /// permission bits `mode` (default rw-r--r--; the umask still narrows it).
    public init(path: String, inputs: [String], overwrite: Bool, mode: FilePermissions? = nil) throws(SafeOutputError) {
        try Self.check(path, inputs: inputs, overwrite: overwrite)
        self.path = path
        self.overwrite = overwrite
        let slash = path.lastIndex(of: "/")
        let folder = slash.map { String(path[..<$0]) } ?? "."
        let name = slash.map { String(path[path.index(after: $0)...]) } ?? path
        var attempt = 0
        while true {
            let random = UInt32.random(in: 0...UInt32.max)
            let candidate = (folder.isEmpty ? "" : folder + "/") + ".\(name).\(String(random, radix: 16)).tmp"
            do {
                let fd = try FileSystem.open(candidate, .writeOnly,
                                             options: [.create, .exclusiveCreate, .noFollow, .closeOnExec],
                                             permissions: mode ?? [.ownerReadWrite, .groupRead, .otherRead])
                temporaryPath = candidate
                file = DiskFile(fd: fd, path: candidate)
                Self.unfinished.withLock { _ = $0.insert(candidate) }
                return
            } catch where error == .fileExists && attempt < 100 {
                attempt += 1
            } catch {
                throw SafeOutputError(path: path, kind: .system(operation: "create a file in the folder of", errno: error))
            }
        }
    }

    deinit { discard() }

    /// The temporary files of outputs neither committed nor discarded. A command killed by a
    /// signal (Ctrl-C) removes them before it dies (`removeUnfinished`): an interrupted
    /// `import` or `export -o` left a hidden `.NAME.….tmp` of any size on the card.
    private static let unfinished = Mutex<Set<String>>([])

    /// Removes every temporary file not yet put in place (from the signal watcher, just
    /// before the process dies by the signal).
    public static func removeUnfinished() {
        for path in unfinished.withLock({ $0 }) { try? FileSystem.remove(path) }
    }

    /// Appends bytes to the temporary file.
    public func write(_ bytes: [UInt8]) throws(SafeOutputError) {
        guard let file else { throw SafeOutputError(path: path, kind: .system(operation: "write", errno: .badFileDescriptor)) }
        let result: OutputError? = bytes.withUnsafeBytes { raw in
            do { try file.write(raw); return nil } catch { return error as? OutputError }
        }
        if let result { throw SafeOutputError(path: path, kind: .system(operation: "write", errno: result.errno)) }
        bytesWritten += Int64(bytes.count)
    }

    /// Makes the file durable and puts it in place (fsync, rename, fsync of the folder).
    public func commit() throws(SafeOutputError) {
        guard let file, !committed else { return }
        do {
            try file.sync()
            try file.close()
        } catch {
            discard()
            throw SafeOutputError(path: path, kind: .system(operation: "write", errno: error.errno))
        }
        self.file = nil
        if overwrite {
            do { try FileSystem.rename(temporaryPath, to: path) } catch {
                discard()
                throw SafeOutputError(path: path, kind: .system(operation: "put in place", errno: error))
            }
        } else {
            // link(2) fails with EEXIST instead of replacing: no file is ever overwritten.
            // File systems without hard links (FAT) get a check, then rename.
            var failure: Errno?
            do { try FileSystem.link(temporaryPath, to: path) } catch { failure = error }
            if failure == nil {
                try? FileSystem.remove(temporaryPath)
            } else {
                var e = failure
                if e == .notPermitted || e == .notSupported || e == .tooManyLinks, !FileSystem.exists(path) {
                    do { try FileSystem.rename(temporaryPath, to: path); e = nil } catch { e = error }
                }
                if let e {
                    discard()
                    if e == .fileExists { throw SafeOutputError(path: path, kind: .exists) }
                    throw SafeOutputError(path: path, kind: .system(operation: "put in place", errno: e))
                }
            }
        }
        committed = true
        Self.unfinished.withLock { _ = $0.remove(temporaryPath) }
        let slash = path.lastIndex(of: "/")
        let folder = slash.map { String(path[..<$0]) } ?? "."
        if let dirFD = try? FileSystem.openDirectory(folder.isEmpty ? "/" : folder) {
            try? dirFD.sync()
            try? dirFD.close()
        }
    }

    /// Removes the temporary file (nothing is put in place).
    public func discard() {
        guard !committed else { return }
        if let file { try? file.close() }
        file = nil
        if !temporaryPath.isEmpty {
            try? FileSystem.remove(temporaryPath)
            Self.unfinished.withLock { _ = $0.remove(temporaryPath) }
        }
        temporaryPath = ""
    }
}

extension SafeOutputFile {
    /// Puts a recording made by a command (`import`, `fuse`) in place: its metadata first,
    /// then the CSV. A CSV without metadata is what a logger's power cut leaves, so a run
    /// killed between the two left a complete output that recovery took for a crashed
    /// recording and that no later run could replace, even with --force; metadata alone is
    /// ignored by every reader and replaced by the next run. If the CSV then cannot be put in
    /// place (a file of its name appeared meanwhile), the metadata placed for it is taken
    /// back, unless it replaced an earlier one (--force).
    public static func commitRecording(csv: SafeOutputFile, metadata: SafeOutputFile?) throws(SafeOutputError) {
        try metadata?.commit()
        do { try csv.commit() } catch {
            if let metadata, !metadata.overwrite { try? FileSystem.remove(metadata.path) }
            throw error
        }
    }
}
