import Crypto
#if canImport(Glibc)
import Glibc
#endif

/// A file copied and checked: its name in the target folder, size and SHA-256 (hex).
public struct CopiedFile: Sendable, Equatable {
    public var name: String
    public var bytes: Int64
    public var sha256: String
}

/// Copies one file into a target folder so that no file there ever looks complete unless it
/// is: written as `NAME.part`, flushed, read back from the device and compared by SHA-256
/// with what was read from the source, then renamed (never over an existing file) and the
/// folder flushed. A `.part` left by a stick pulled mid-copy is replaced.
enum VerifiedCopy {
    static let chunkBytes = 1 << 20

    /// SHA-256 of a file, read in chunks (memory independent of its size).
    static func sha256(path: String, progress: (Int64) -> Void = { _ in }) throws(OffloadError) -> (hex: String, bytes: Int64) {
        let fd = SystemCalls.retrying { Glibc.open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW) }
        if fd < 0 { throw OffloadError("open", path: path, errno: SystemCalls.errno) }
        defer { Glibc.close(fd) }
        return try hash(fd: fd, path: path, progress: progress)
    }

    private static func hash(fd: Int32, path: String, progress: (Int64) -> Void,
                             sink: ((UnsafeRawBufferPointer) throws(OffloadError) -> Void)? = nil) throws(OffloadError) -> (hex: String, bytes: Int64) {
        var hasher = SHA256()
        var total: Int64 = 0
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: chunkBytes, alignment: 16)
        defer { buffer.deallocate() }
        while true {
            let n = try SystemCalls.read(fd, buffer, path: path)
            if n == 0 { break }
            let chunk = UnsafeRawBufferPointer(rebasing: buffer[0..<n])
            hasher.update(bufferPointer: chunk)
            try sink?(chunk)
            total += Int64(n)
            progress(Int64(n))
        }
        return (hex(hasher.finalize()), total)
    }

    static func hex(_ digest: SHA256.Digest) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var out: [UInt8] = []
        out.reserveCapacity(64)
        for b in digest { out.append(digits[Int(b >> 4)]); out.append(digits[Int(b & 15)]) }
        return String(decoding: out, as: UTF8.self)
    }

    /// Copies `source` to `name` in the folder open as `directory` (path `folder`).
    static func copy(source: String, directory: Int32, folder: String, name: String,
                     progress: (Int64) -> Void) throws(OffloadError) -> CopiedFile {
        let part = name + ".part"
        let target = folder + "/" + name
        let src = SystemCalls.retrying { Glibc.open(source, O_RDONLY | O_CLOEXEC | O_NOFOLLOW) }
        if src < 0 { throw OffloadError("open", path: source, errno: SystemCalls.errno) }
        defer { Glibc.close(src) }
        var st = stat()
        guard fstat(src, &st) == 0 else { throw OffloadError("read the size of", path: source, errno: SystemCalls.errno) }
        let expected = Int64(st.st_size)

        if unlinkat(directory, part, 0) != 0 && Glibc.errno != ENOENT {
            throw OffloadError("remove the unfinished copy", path: folder + "/" + part, errno: SystemCalls.errno)
        }
        let dst = SystemCalls.retrying {
            openat(directory, part, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o644)
        }
        if dst < 0 { throw OffloadError("create", path: folder + "/" + part, errno: SystemCalls.errno) }
        var written: (hex: String, bytes: Int64)
        do {
            defer { Glibc.close(dst) }
            written = try hash(fd: src, path: source, progress: progress) { (chunk: UnsafeRawBufferPointer) throws(OffloadError) in
                try SystemCalls.writeAll(dst, chunk, path: folder + "/" + part)
            }
            try SystemCalls.fsync(dst, path: folder + "/" + part)
            SystemCalls.dropCache(dst)
        } catch {
            _ = unlinkat(directory, part, 0)
            throw error
        }
        guard written.bytes == expected else {
            _ = unlinkat(directory, part, 0)
            throw OffloadError("copy", path: source, reason: "it changed while it was copied (\(expected) bytes before, \(written.bytes) read); try again")
        }
        // Read the copy back from the device, not from the page cache.
        let check = SystemCalls.retrying { openat(directory, part, O_RDONLY | O_CLOEXEC | O_NOFOLLOW) }
        if check < 0 { throw OffloadError("read back", path: folder + "/" + part, errno: SystemCalls.errno) }
        SystemCalls.dropCache(check)
        let readBack: (hex: String, bytes: Int64)
        do {
            defer { Glibc.close(check) }
            readBack = try hash(fd: check, path: folder + "/" + part, progress: { _ in })
        }
        guard readBack == written else {
            _ = unlinkat(directory, part, 0)
            throw OffloadError("verify", path: target, reason: "the copy read back differs from the recording (SHA-256 \(readBack.hex.prefix(12))… against \(written.hex.prefix(12))…): the stick may be failing")
        }
        try SystemCalls.renameNoReplace(directory: directory, from: part, to: name, folder: folder)
        try SystemCalls.fsync(directory, path: folder)
        return CopiedFile(name: name, bytes: written.bytes, sha256: written.hex)
    }
}
