import Crypto
import MotionSystem
import SystemPackage

/// A file copied and checked: its name in the target folder, size and SHA-256 (hex).
public struct CopiedFile: Sendable, Equatable {
    public var name: String
    public var bytes: Int64
    public var sha256: String
}

/// Copies one file into a target folder so that no file there ever looks complete unless it
/// is: written as `NAME.part`, flushed, read back from the device and compared by SHA-256
/// with what was read from the source, then renamed (never over an existing file) and the
/// folder flushed. A `.part` left by a stick pulled mid-copy is replaced; one stopped on
/// request (`stop`, checked after every chunk) is removed.
enum VerifiedCopy {
    static let chunkBytes = 1 << 20

    /// SHA-256 of a file, read in chunks (memory independent of its size).
    static func sha256(path: String, progress: (Int64) -> Void = { _ in }) throws(OffloadError) -> (hex: String, bytes: Int64) {
        let fd = try SystemCalls.open(path, .readOnly, operation: "open")
        defer { try? fd.close() }
        return try hash(fd: fd, path: path, progress: progress)
    }

    /// With `stop`, a requested stop ends the read before the next chunk.
    private static func hash(fd: FileDescriptor, path: String, stop: OffloadStop? = nil,
                             progress: (Int64) -> Void,
                             sink: ((UnsafeRawBufferPointer) throws(OffloadError) -> Void)? = nil) throws(OffloadError) -> (hex: String, bytes: Int64) {
        var hasher = SHA256()
        var total: Int64 = 0
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: chunkBytes, alignment: 16)
        defer { buffer.deallocate() }
        while true {
            if let reason = stop?.reason { throw OffloadError.stopped(path, by: reason) }
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

    /// A name with a character FAT and exFAT forbid (or a control character).
    static func fatForbidden(_ name: String) -> Bool {
        name.unicodeScalars.contains { $0.value < 0x20 || "\"*:<>?\\|".unicodeScalars.contains($0) }
    }

    /// Copies `source` to `name` in the folder open as `directory` (path `folder`).
    static func copy(source: String, directory: Directory, name: String, stop: OffloadStop? = nil,
                     progress: (Int64) -> Void) throws(OffloadError) -> CopiedFile {
        let folder = directory.path
        let part = name + ".part"
        let target = folder + "/" + name
        let src = try SystemCalls.open(source, .readOnly, operation: "open")
        defer { try? src.close() }
        let expected: Int64
        do { expected = try src.status().size } catch { throw OffloadError("read the size of", path: source, errno: error) }

        do { try directory.removeIfPresent(part) } catch {
            throw OffloadError("clear any earlier unfinished copy", path: folder + "/" + part, errno: error)
        }
        let dst: FileDescriptor
        do {
            dst = try directory.open(part, .writeOnly, options: [.create, .exclusiveCreate, .noFollow, .closeOnExec],
                                     permissions: [.ownerReadWrite, .groupRead, .otherRead])
        } catch {
            // A name FAT and exFAT cannot hold (a browser's "X.json:Zone.Identifier" beside a
            // recording) was refused with "it does not exist" (ENOENT from exfat-fuse, EINVAL
            // from the kernel's vfat), run after run.
            if Self.fatForbidden(name), [Errno.invalidArgument, .noSuchFileOrDirectory, .illegalByteSequence].contains(error) {
                throw OffloadError("create", path: folder + "/" + name, reason: "the name cannot be stored on this file system (FAT and exFAT allow none of \" * : < > ? \\ | in a name): move or rename that file in the recordings folder, and the recording is copied next time")
            }
            throw OffloadError("create", path: folder + "/" + part, errno: error)
        }
        var written: (hex: String, bytes: Int64)
        do {
            defer { try? dst.close() }
            written = try hash(fd: src, path: source, stop: stop, progress: progress) { (chunk: UnsafeRawBufferPointer) throws(OffloadError) in
                try SystemCalls.writeAll(dst, chunk, path: folder + "/" + part)
            }
            try SystemCalls.fsync(dst, path: folder + "/" + part)
            dst.adviseDontNeed()
        } catch {
            try? directory.removeIfPresent(part)
            throw error
        }
        guard written.bytes == expected else {
            try? directory.removeIfPresent(part)
            throw OffloadError("copy", path: source, reason: "it changed while it was copied (\(expected) bytes before, \(written.bytes) read); try again")
        }
        // Read the copy back from the device, not from the page cache.
        let check: FileDescriptor
        do { check = try directory.open(part, .readOnly, options: [.closeOnExec, .noFollow]) } catch {
            try? directory.removeIfPresent(part)
            throw OffloadError("read back", path: folder + "/" + part, errno: error)
        }
        check.adviseDontNeed()
        let readBack: (hex: String, bytes: Int64)
        do {
            defer { try? check.close() }
            readBack = try hash(fd: check, path: folder + "/" + part, stop: stop, progress: { _ in })
        } catch {
            try? directory.removeIfPresent(part)
            throw error
        }
        guard readBack == written else {
            try? directory.removeIfPresent(part)
            throw OffloadError("verify", path: target, reason: "the copy read back differs from the recording (SHA-256 \(readBack.hex.prefix(12))… against \(written.hex.prefix(12))…): the stick may be failing")
        }
        do { try SystemCalls.renameNoReplace(directory: directory, from: part, to: name) } catch {
            // A name taken meanwhile (or a link put there): the verified copy is not left
            // behind as a stray `.part` (27 were, one per file).
            try? directory.removeIfPresent(part)
            throw error
        }
        try SystemCalls.fsync(directory)
        return CopiedFile(name: name, bytes: written.bytes, sha256: written.hex)
    }
}
