import Foundation
import HummingbirdCore
import MotionSystem
import NIOCore
import SystemPackage

/// A ZIP archive written front to back while it streams to the client, with no temporary
/// copy and no seeking: stored (uncompressed) entries with data descriptors (general
/// purpose bit 3), CRC-32 computed while each file streams, ZIP64 records where a size or
/// offset needs them (APPNOTE.TXT 6.3.10 §4.3, §4.4, §4.5.3).
///
/// Why not ZIPFoundation for writing: its `Archive` writes through a seekable file or an
/// in-memory buffer (it seeks back to patch headers), so it cannot stream a large archive
/// without a copy on the card or in memory. CSV does not gain enough from deflate on a Pi
/// to be worth the CPU next to the sampler. The tests read every archive back with
/// ZIPFoundation.
struct ZipStream {
    /// One file of the archive: `fileName` in the folder, stored as `archiveName`, the
    /// first `length` bytes of it.
    struct Entry: Sendable {
        var archiveName: String
        var fileName: String
        var length: Int64
        var modifiedEpoch: Double
    }

    let entries: [Entry]

    private static let max32: Int64 = 0xFFFF_FFFF

    /// The exact length of the archive (for `Content-Length`).
    var totalLength: Int64 {
        var offset: Int64 = 0
        var offsets: [Int64] = []
        for e in entries {
            offsets.append(offset)
            offset += Int64(Self.localHeader(e).count) + e.length + Int64(Self.descriptor(e, crc: 0).count)
        }
        let central = Self.centralDirectory(entries, offsets: offsets, crcs: Array(repeating: 0, count: entries.count))
        return offset + Int64(central.count) + Int64(Self.end(count: entries.count, centralSize: Int64(central.count), centralOffset: offset).count)
    }

    /// A file of the archive, whose length is already announced, could not be opened or
    /// read to its announced length (removed or truncated behind the server's back).
    struct Unreadable: Error, CustomStringConvertible {
        var fileName: String
        var reason: String
        var description: String { "\(fileName): \(reason)" }
    }

    /// Writes the archive; `open` opens a folder file by name (the caller's lookup). Throws
    /// `Unreadable` when a file cannot be sent whole (the archive is then broken off: the
    /// caller must not end the response as if it were complete).
    func write(to writer: inout any ResponseBodyWriter, open: (String) throws -> SystemPackage.FileDescriptor) async throws {
        var offset: Int64 = 0
        var offsets: [Int64] = []
        var crcs: [UInt32] = []
        for e in entries {
            offsets.append(offset)
            let header = Self.localHeader(e)
            try await writer.write(ByteBuffer(bytes: header))
            let fd: SystemPackage.FileDescriptor
            do { fd = try open(e.fileName) } catch { throw Unreadable(fileName: e.fileName, reason: "\(error)") }
            defer { try? fd.close() }
            var crc = CRC32()
            do {
                try await FileChunks.stream(fd: fd, offset: 0, count: e.length, to: &writer) { crc.update($0) }
            } catch FileChunks.StreamError.fileShrank {
                throw Unreadable(fileName: e.fileName, reason: "it ended before the \(e.length) bytes announced")
            }
            let d = Self.descriptor(e, crc: crc.value)
            try await writer.write(ByteBuffer(bytes: d))
            crcs.append(crc.value)
            offset += Int64(header.count) + e.length + Int64(d.count)
        }
        let central = Self.centralDirectory(entries, offsets: offsets, crcs: crcs)
        try await writer.write(ByteBuffer(bytes: central))
        try await writer.write(ByteBuffer(bytes: Self.end(count: entries.count, centralSize: Int64(central.count), centralOffset: offset)))
    }

    // MARK: Records

    private static func needsZip64(_ e: Entry) -> Bool { e.length >= max32 }

    /// MS-DOS time and date (local time), the only timestamps every unzip understands: 1980
    /// to 2107, so a file's time outside is given as the nearest end.
    private static func dosTime(_ epoch: Double) -> (time: UInt16, date: UInt16) {
        let seconds = epoch.isFinite ? min(max(epoch, 315_532_800), 4_354_819_199) : 315_532_800
        let parts = CalendarTime.parts(epochSeconds: Int64(seconds), utc: false)
        let year = min(max(parts.year, 1980), 2107)
        let time = UInt16(parts.hour) << 11 | UInt16(parts.minute) << 5 | UInt16(parts.second / 2)
        let date = UInt16(year - 1980) << 9 | UInt16(parts.month) << 5 | UInt16(parts.day)
        return (time, date)
    }

    /// General purpose flags: bit 3 (sizes and CRC follow the data), bit 11 (UTF-8 names).
    private static let flags: UInt16 = 1 << 3 | 1 << 11

    static func localHeader(_ e: Entry) -> [UInt8] {
        var b = Bytes()
        let name = Array(e.archiveName.utf8)
        let zip64 = needsZip64(e)
        let (time, date) = dosTime(e.modifiedEpoch)
        b.u32(0x0403_4B50)
        b.u16(zip64 ? 45 : 20)
        b.u16(flags)
        b.u16(0)                     // stored
        b.u16(time); b.u16(date)
        b.u32(0)                     // CRC in the descriptor
        b.u32(zip64 ? 0xFFFF_FFFF : 0); b.u32(zip64 ? 0xFFFF_FFFF : 0)
        b.u16(UInt16(name.count))
        b.u16(zip64 ? 20 : 0)
        b.bytes(name)
        if zip64 { b.u16(0x0001); b.u16(16); b.u64(0); b.u64(0) }
        return b.data
    }

    static func descriptor(_ e: Entry, crc: UInt32) -> [UInt8] {
        var b = Bytes()
        b.u32(0x0807_4B50)
        b.u32(crc)
        if needsZip64(e) { b.u64(UInt64(e.length)); b.u64(UInt64(e.length)) } else {
            b.u32(UInt32(e.length)); b.u32(UInt32(e.length))
        }
        return b.data
    }

    static func centralDirectory(_ entries: [Entry], offsets: [Int64], crcs: [UInt32]) -> [UInt8] {
        var b = Bytes()
        for (i, e) in entries.enumerated() {
            let name = Array(e.archiveName.utf8)
            let bigSize = e.length >= max32, bigOffset = offsets[i] >= max32
            var extra = Bytes()
            if bigSize || bigOffset {
                var fields = Bytes()
                if bigSize { fields.u64(UInt64(e.length)); fields.u64(UInt64(e.length)) }
                if bigOffset { fields.u64(UInt64(offsets[i])) }
                extra.u16(0x0001); extra.u16(UInt16(fields.data.count)); extra.bytes(fields.data)
            }
            let (time, date) = dosTime(e.modifiedEpoch)
            b.u32(0x0201_4B50)
            b.u16(3 << 8 | 45)           // made by: Unix, spec 4.5
            b.u16(bigSize || bigOffset ? 45 : 20)
            b.u16(flags)
            b.u16(0)
            b.u16(time); b.u16(date)
            b.u32(crcs[i])
            b.u32(bigSize ? 0xFFFF_FFFF : UInt32(e.length)); b.u32(bigSize ? 0xFFFF_FFFF : UInt32(e.length))
            b.u16(UInt16(name.count))
            b.u16(UInt16(extra.data.count))
            b.u16(0); b.u16(0); b.u16(0)  // comment, disk, internal attributes
            b.u32(UInt32(0o100644) << 16)  // regular file, rw-r--r--
            b.u32(bigOffset ? 0xFFFF_FFFF : UInt32(offsets[i]))
            b.bytes(name)
            b.bytes(extra.data)
        }
        return b.data
    }

    static func end(count: Int, centralSize: Int64, centralOffset: Int64) -> [UInt8] {
        var b = Bytes()
        let zip64 = count >= 0xFFFF || centralSize >= max32 || centralOffset >= max32
        if zip64 {
            let recordOffset = centralOffset + centralSize
            b.u32(0x0606_4B50); b.u64(44)
            b.u16(3 << 8 | 45); b.u16(45)
            b.u32(0); b.u32(0)
            b.u64(UInt64(count)); b.u64(UInt64(count))
            b.u64(UInt64(centralSize)); b.u64(UInt64(centralOffset))
            b.u32(0x0706_4B50); b.u32(0); b.u64(UInt64(recordOffset)); b.u32(1)
        }
        b.u32(0x0605_4B50)
        b.u16(0); b.u16(0)
        b.u16(UInt16(min(count, 0xFFFF))); b.u16(UInt16(min(count, 0xFFFF)))
        b.u32(UInt32(min(centralSize, max32))); b.u32(UInt32(min(centralOffset, max32)))
        b.u16(0)
        return b.data
    }
}

/// Little-endian byte building for ZIP records.
private struct Bytes {
    var data: [UInt8] = []
    mutating func u16(_ v: UInt16) { data.append(UInt8(v & 0xFF)); data.append(UInt8(v >> 8)) }
    mutating func u32(_ v: UInt32) { for i in 0..<4 { data.append(UInt8((v >> (8 * UInt32(i))) & 0xFF)) } }
    mutating func u64(_ v: UInt64) { for i in 0..<8 { data.append(UInt8((v >> (8 * UInt64(i))) & 0xFF)) } }
    mutating func bytes(_ b: [UInt8]) { data += b }
}
