import Foundation
import SystemPackage
import Testing
@testable import MotionSystem

/// `MappedFile`: the file's bytes in place, zeros after them, and a file that shrinks while
/// mapped read as zeros and flagged instead of killing the process with SIGBUS.
@Suite struct MappedFileTests {
    func file(bytes: Int) throws -> (path: String, fd: FileDescriptor, data: [UInt8]) {
        let path = temporaryDirectory() + "/mapped.bin"
        let data = (0..<bytes).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) | 1 }   // no zero byte
        try Data(data).write(to: URL(fileURLWithPath: path))
        return (path, try FileDescriptor.open(path, .readWrite), data)
    }

    @Test(arguments: [1, 4095, 4096, 9_000_001])
    func theBytesThenZeros(size: Int) throws {
        let (_, fd, data) = try file(bytes: size)
        defer { try? fd.close() }
        let mapped = try #require(MappedFile(fd))
        #expect(mapped.size == size)
        #expect(Array(UnsafeBufferPointer(start: mapped.base, count: size)) == data)
        #expect(UnsafeBufferPointer(start: mapped.base + size, count: MappedFile.padding).allSatisfy { $0 == 0 })
        mapped.release(before: size / 2)   // released pages read the file again
        #expect(mapped.base[size / 3] == data[size / 3] && mapped.base[size - 1] == data[size - 1])
        #expect(!mapped.changedWhileRead)
    }

    @Test func nothingToMap() throws {
        let (path, fd, _) = try file(bytes: 0)
        defer { try? fd.close() }
        #expect(MappedFile(fd) == nil)   // empty: read(2) says so
        let folder = try FileDescriptor.open(URL(fileURLWithPath: path).deletingLastPathComponent().path, .readOnly)
        defer { try? folder.close() }
        #expect(MappedFile(folder) == nil)
    }

    /// Truncated after mapping (as another program, or the recorder cutting back a write on
    /// a full card, can): the lost pages read as zeros, and the mapping says so. Without
    /// the guard this test process dies of SIGBUS.
    @Test func aFileThatShrinksReadsAsZerosAndSaysSo() throws {
        let size = 1_000_000
        let (_, fd, data) = try file(bytes: size)
        defer { try? fd.close() }
        let mapped = try #require(MappedFile(fd))
        let before = mapped.base[size - 1]   // mapped in, then lost with the truncation
        #expect(before == data[size - 1])
        try fd.truncate(to: 10_000)
        var sum = 0
        for k in stride(from: 0, to: size, by: 1000) { sum += Int(mapped.base[k]) }
        #expect(mapped.changedWhileRead)
        #expect(mapped.base[9_999] == data[9_999])   // the page the file still has
        #expect(mapped.base[size - 1] == 0 && mapped.base[20_000] == 0)
        #expect(sum > 0)
        // Another mapping of another file is not flagged.
        let (_, other, _) = try file(bytes: 5000)
        defer { try? other.close() }
        let untouched = try #require(MappedFile(other))
        #expect(untouched.base[4999] != 0 && !untouched.changedWhileRead)
    }

    /// The guard takes only faults inside its mappings: any other address (the heap, the
    /// first pages) is passed on. (Only addresses no other test can have mapped.)
    @Test func addressesOutsideTheMappingsAreNotTheGuards() throws {
        let (_, fd, _) = try file(bytes: 8192)
        defer { try? fd.close() }
        let mapped = try #require(MappedFile(fd))
        let heap = UnsafeMutablePointer<UInt8>.allocate(capacity: 64)
        defer { heap.deallocate() }
        #expect(!MappedFileGuard.zeroPages(at: Int(bitPattern: heap)))
        #expect(!MappedFileGuard.zeroPages(at: 4096))
        #expect(!mapped.changedWhileRead && mapped.base[8191] != 0)
    }
}
