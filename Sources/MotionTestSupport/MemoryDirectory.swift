import Dispatch
import MotionCore
import Synchronization
import SystemPackage

/// An in-memory `OutputDirectory` for tests: files are byte arrays; writes can be made to
/// stall (until the test releases them) or to fail, fully or after part of the bytes.
public final class MemoryDirectory: OutputDirectory, @unchecked Sendable {
    public let path = "/memory"
    private let state = Mutex<[String: [UInt8]]>([:])
    private let order = Mutex<[String]>([])
    /// Called before each CSV write with the write's index (0-based); returns the fault to inject.
    public var fault: (@Sendable (Int) -> Fault)?
    private let writes = Atomic<Int>(0)
    /// Signalled when a write starts stalling; the stall ends when `release` is signalled.
    public let stallEntered = DispatchSemaphore(value: 0)
    public let release = DispatchSemaphore(value: 0)

    public enum Fault: Sendable {
        case none
        case stall
        /// Writes this many bytes, then fails with the errno.
        case fail(afterBytes: Int, errno: Errno)
    }

    /// The largest file the "file system" allows (FAT32: 4 GiB − 1 byte): as Linux does, a
    /// write that would pass it writes up to it and then fails with EFBIG.
    public var maxFileBytes: Int?
    /// When set, creating a file fails with this errno (a folder that cannot be written).
    public var createFault: Errno?
    /// Set to say the folder is gone (removed under the recording), with this reason.
    public let gone = Mutex<String?>(nil)
    /// Files closed, by the name they were created with (a closed file is no longer locked
    /// against recovery).
    public let closed = Mutex<Set<String>>([])
    /// Files deleted while open.
    public let deleted = Mutex<Set<String>>([])

    public init() {}

    public var missingReason: String? { gone.withLock { $0 } }

    /// Deletes every file and says the folder is gone (as `rm -rf` of the folder would).
    public func removeEverything() {
        let names = state.withLock { files -> [String] in let n = Array(files.keys); files = [:]; return n }
        deleted.withLock { $0.formUnion(names) }
        gone.withLock { $0 = "the output folder /memory is gone" }
    }

    public func createExclusive(base: String, ext: String) throws(OutputError) -> (base: String, file: OutputFile) {
        if let e = createFault { throw OutputError(operation: "create", path: path + "/" + base + ext, errno: e) }
        var suffix = 0
        while true {
            let name = suffix == 0 ? base : "\(base)-\(suffix)"
            let created = state.withLock { files -> Bool in
                if files[name + ext] != nil { return false }
                files[name + ext] = []
                return true
            }
            if created {
                order.withLock { $0.append(name + ext) }
                return (name, MemoryFile(directory: self, name: name + ext))
            }
            suffix += 1
        }
    }

    public func replace(name: String, contents: [UInt8]) throws(OutputError) {
        state.withLock { $0[name] = contents }
    }

    /// Renames as `DiskDirectory` does: never over an existing file (`-1`, `-2`, ...); an open
    /// `MemoryFile` keeps writing to its file under the new name.
    public func rename(_ from: String, toBase base: String, ext: String) throws(OutputError) -> String {
        var suffix = 0
        while true {
            let candidate = suffix == 0 ? base : "\(base)-\(suffix)"
            let outcome = state.withLock { files -> Bool? in
                guard let bytes = files[from] else { return nil }
                if files[candidate + ext] != nil { return false }
                files[candidate + ext] = bytes
                files[from] = nil
                return true
            }
            switch outcome {
            case nil: throw OutputError(operation: "rename", path: path + "/" + from, errno: .noSuchFileOrDirectory)
            case true?:
                order.withLock { names in if let i = names.firstIndex(of: from) { names[i] = candidate + ext } }
                renamed.withLock { $0[from] = candidate + ext }
                return candidate
            case false?: suffix += 1
            }
        }
    }

    public func remove(name: String) throws(OutputError) {
        let existed = state.withLock { $0.removeValue(forKey: name) != nil }
        if !existed { throw OutputError(operation: "remove", path: path + "/" + name, errno: .noSuchFileOrDirectory) }
    }

    /// Where a renamed file went (an open file follows its renames).
    private let renamed = Mutex<[String: String]>([:])
    fileprivate func current(_ name: String) -> String {
        renamed.withLock { map in
            var n = name
            while let next = map[n] { n = next }
            return n
        }
    }

    public func contents(_ name: String) -> [UInt8] { state.withLock { $0[name] ?? [] } }
    public func text(_ name: String) -> String { String(decoding: contents(name), as: UTF8.self) }
    /// CSV files in creation order.
    public var csvFiles: [String] { order.withLock { $0 } }

    fileprivate func append(_ name: String, _ bytes: UnsafeRawBufferPointer) throws(OutputError) {
        let index = writes.add(1, ordering: .relaxed).oldValue
        if let limit = maxFileBytes {
            let size = state.withLock { $0[name]?.count ?? 0 }
            if size + bytes.count > limit {
                let part = max(0, limit - size)
                state.withLock { $0[name, default: []].append(contentsOf: bytes[0..<part]) }
                throw OutputError(operation: "write", path: name, errno: .fileTooLarge, bytesWritten: part)
            }
        }
        switch fault?(index) ?? .none {
        case .none:
            state.withLock { $0[name, default: []].append(contentsOf: bytes) }
        case .stall:
            stallEntered.signal()
            release.wait()
            state.withLock { $0[name, default: []].append(contentsOf: bytes) }
        case .fail(let n, let errno):
            let part = min(n, bytes.count)
            state.withLock { $0[name, default: []].append(contentsOf: bytes[0..<part]) }
            throw OutputError(operation: "write", path: name, errno: errno, bytesWritten: part)
        }
    }

    fileprivate func truncate(_ name: String, _ size: Int64) {
        state.withLock { files in
            if var f = files[name], Int(size) < f.count { f.removeSubrange(Int(size)...); files[name] = f }
        }
    }
}

/// One file of a `MemoryDirectory`.
public final class MemoryFile: OutputFile {
    public let directory: MemoryDirectory
    /// The name it was created with (it follows renames).
    public let name: String
    init(directory: MemoryDirectory, name: String) { self.directory = directory; self.name = name }
    public func write(_ bytes: UnsafeRawBufferPointer) throws(OutputError) { try directory.append(directory.current(name), bytes) }
    public func sync() throws(OutputError) {}
    public func truncate(to size: Int64) throws(OutputError) { directory.truncate(directory.current(name), size) }
    public func close() throws(OutputError) { directory.closed.withLock { _ = $0.insert(name) } }
    public var isDeleted: Bool { directory.deleted.withLock { $0.contains(name) } }
}
