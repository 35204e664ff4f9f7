import HummingbirdCore
import MotionSystem
import NIOCore
import NIOPosix
import SystemPackage

/// Reads a byte range of an open file in chunks on NIO's blocking-I/O thread pool (never on
/// an event loop or the sampling thread) and hands each chunk to the response writer, which
/// waits while the client is slow (back-pressure: memory stays at one chunk per download).
enum FileChunks {
    /// 1 MiB: a quarter of the hops between the event loop and the pool that 256 KiB took
    /// (figure 7 in BENCHMARKS.md); eight downloads hold 8 MiB.
    static let chunkSize = 1 << 20

    /// Streams `count` bytes from `offset`; `each` sees every chunk (for a CRC). Throws
    /// when the file ends early (it was truncated or replaced while streaming).
    static func stream(fd: SystemPackage.FileDescriptor, offset: Int64, count: Int64, to writer: inout any ResponseBodyWriter,
                       each: ((UnsafeRawBufferPointer) -> Void)? = nil) async throws {
        var position = offset
        let end = offset + count
        while position < end {
            let want = Int(min(Int64(chunkSize), end - position))
            let at = position
            let buffer = try await NIOThreadPool.singleton.runIfActive { () throws -> ByteBuffer in
                var b = ByteBufferAllocator().buffer(capacity: want)
                let n = b.writeWithUnsafeMutableBytes(minimumWritableBytes: want) { p in
                    let r = try? fd.readSome(into: UnsafeMutableRawBufferPointer(rebasing: p[0..<want]), at: at)
                    return r ?? 0
                }
                guard n > 0 else { throw StreamError.fileShrank }
                return b
            }
            if let each { buffer.withUnsafeReadableBytes { each($0) } }
            position += Int64(buffer.readableBytes)
            try await writer.write(buffer)
        }
    }

    /// The length of the file's complete rows: up to and including its last LF (a file
    /// being written may end in half a row). Looks back at most 64 KiB from `size`.
    static func completeLength(fd: SystemPackage.FileDescriptor, size: Int64) -> Int64 {
        guard size > 0 else { return 0 }
        let window = Int(min(size, 64 * 1024))
        var bytes = [UInt8](repeating: 0, count: window)
        let n = try? bytes.withMutableBytes { (raw) throws(Errno) -> Int in try fd.readSome(into: raw, at: size - Int64(window)) }
        guard n == window else { return 0 }
        guard let lastLF = bytes.lastIndex(of: 0x0A) else { return 0 }
        return size - Int64(window) + Int64(lastLF) + 1
    }

    enum StreamError: Error { case fileShrank }
}
