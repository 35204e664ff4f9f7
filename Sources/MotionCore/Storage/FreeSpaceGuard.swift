/// The free-space rule: a recording stops while at least `minimumFreeBytes` are still free,
/// so the card never fills up. What is still buffered when it stops (two writer buffers, a
/// few MB at most) fits comfortably in the reserve, so the stop is clean: every row written,
/// fsynced, metadata finished. (If another program fills the card anyway, the writer's
/// ENOSPC handling still cuts the file back to a whole row.)
public struct FreeSpaceGuard: Sendable {
    /// 100 MiB (`min_free_space: 100M`).
    public static let defaultMinimumFreeBytes: Int64 = 100 * 1024 * 1024
    /// The end reason written to the metadata when the guard stopped a recording.
    public static let endReason = "low-disk-space"

    /// Inodes kept free on file systems that count them: a rotation needs a few (CSV, JSON
    /// and its temporary), and a card out of inodes is as full as one out of bytes.
    public static let defaultMinimumFreeInodes: Int64 = 64

    public let path: String
    public let minimumFreeBytes: Int64
    public let minimumFreeInodes: Int64
    /// Bytes that may still reach the card after the stop is asked for (both row buffers
    /// and the bytes between two checks): the recording stops this much above the reserve,
    /// so the reserve itself is never written into.
    public let headroomBytes: Int64
    /// The same for inodes: files those bytes may still open (small rotation sizes).
    public let headroomInodes: Int64
    public let stats: FileSystemStats
    /// How the user of the command that keeps this reserve lowers it, for the message when
    /// the space is low (`record` reads it from a config file, the daemon also has an option).
    public let howToLower: String

    public static let defaultHowToLower = "lower min_free_space in the config file"

    public init(path: String, minimumFreeBytes: Int64 = FreeSpaceGuard.defaultMinimumFreeBytes,
                minimumFreeInodes: Int64 = FreeSpaceGuard.defaultMinimumFreeInodes, headroomBytes: Int64 = 0,
                headroomInodes: Int64 = 0, howToLower: String = FreeSpaceGuard.defaultHowToLower,
                stats: FileSystemStats = StatvfsFileSystemStats()) {
        self.path = path; self.minimumFreeBytes = minimumFreeBytes; self.minimumFreeInodes = minimumFreeInodes
        self.headroomBytes = max(0, headroomBytes); self.headroomInodes = max(0, headroomInodes)
        self.howToLower = howToLower; self.stats = stats
    }

    /// Inodes the headroom's bytes may use: three per file (CSV, JSON, its temporary) for
    /// every file a size rotation starts within them.
    public static func headroomInodes(headroomBytes: Int64, rotateBytes: Int64?) -> Int64 {
        guard let r = rotateBytes, r > 0 else { return 3 }
        return 3 * (headroomBytes / r + 2)
    }

    /// How many bytes are checked for at most between two checks by bytes written.
    public var checkEveryBytes: Int64 { min(4 << 20, max(64 << 10, minimumFreeBytes / 16)) }

    /// The headroom for a recorder with `bufferRows`-row buffers: two full buffers of long
    /// rows (100 bytes on average is generous for A/G/M/D/L) plus one check interval.
    public static func headroom(bufferRows: Int, minimumFreeBytes: Int64) -> Int64 {
        let probe = FreeSpaceGuard(path: "", minimumFreeBytes: minimumFreeBytes)
        return 2 * Int64(bufferRows) * 100 + probe.checkEveryBytes
    }

    /// Reads the space now and judges it.
    public func check() -> FreeSpaceVerdict {
        do {
            let space = try stats.space(at: path)
            if space.totalBytes == 0 {
                // /sys, /proc: no blocks at all. Not "full": the file creation says what is wrong.
                return .unknown("\(path) is on a file system without storage space (a virtual one such as /sys or /proc?)")
            }
            var reading = FreeSpaceReading(path: path, availableBytes: space.availableBytes, minimumFreeBytes: minimumFreeBytes)
            reading.headroomBytes = headroomBytes
            reading.howToLower = howToLower
            if space.totalInodes > 0 {
                reading.availableInodes = space.availableInodes
                reading.minimumFreeInodes = minimumFreeInodes
                reading.headroomInodes = headroomInodes
            }
            return reading.isLow ? .low(reading) : .enough(reading)
        } catch {
            return .unknown(error.description)
        }
    }
}

/// One reading of the free space against the limit.
public struct FreeSpaceReading: Sendable, Equatable {
    public var path: String
    public var availableBytes: Int64
    public var minimumFreeBytes: Int64
    /// Free inodes and their minimum (nil: the file system does not count inodes).
    public var availableInodes: Int64? = nil
    public var minimumFreeInodes: Int64? = nil
    /// Stop this far above the reserve (see `FreeSpaceGuard.headroomBytes`).
    public var headroomBytes: Int64 = 0
    public var headroomInodes: Int64 = 0
    /// The command's way to lower the reserve (see `FreeSpaceGuard.howToLower`).
    public var howToLower: String = FreeSpaceGuard.defaultHowToLower

    public init(path: String, availableBytes: Int64, minimumFreeBytes: Int64) {
        self.path = path; self.availableBytes = availableBytes; self.minimumFreeBytes = minimumFreeBytes
    }

    public var bytesLow: Bool { availableBytes < minimumFreeBytes + headroomBytes }
    public var inodesLow: Bool {
        guard let free = availableInodes, let minimum = minimumFreeInodes else { return false }
        return free < minimum + headroomInodes
    }
    public var isLow: Bool { bytesLow || inodesLow }
}

/// The guard's judgement.
public enum FreeSpaceVerdict: Sendable, Equatable, CustomStringConvertible {
    case enough(FreeSpaceReading)
    case low(FreeSpaceReading)
    /// The space could not be read (the recording goes on; the write-error handling remains).
    case unknown(String)

    public var isLow: Bool { if case .low = self { return true } else { return false } }

    public var availableBytes: Int64? {
        switch self {
        case .enough(let r), .low(let r): return r.availableBytes
        case .unknown: return nil
        }
    }

    public var description: String {
        switch self {
        case .enough(let r):
            return "\(ByteText.describe(r.availableBytes)) free on \(r.path)"
        case .low(let r) where !r.bytesLow:
            return "only \(r.availableInodes ?? 0) inodes (file slots) left on \(r.path), below the \(r.minimumFreeInodes ?? 0) kept free: recording stopped before the card runs out of them — delete files you do not need (many small files use them up)"
        case .low(let r):
            // The threshold is the reserve plus the headroom: "only 108 MB free … to keep the
            // 100 MB reserve" read as a contradiction.
            let reserve = ByteText.describe(r.minimumFreeBytes)
            let why = r.headroomBytes > 0
                ? "the \(reserve) reserve (min_free_space) plus \(ByteText.describe(r.headroomBytes)) for the rows still buffered when a recording stops"
                : "the \(reserve) reserve (min_free_space)"
            return "only \(ByteText.describe(r.availableBytes)) free on \(r.path): recording stops with \(ByteText.describe(r.minimumFreeBytes + r.headroomBytes)) still free, to keep \(why) — copy the recordings off and delete them, or \(r.howToLower)"
        case .unknown(let why):
            return why
        }
    }
}

/// Byte counts for people: `512 B`, `95.3 MB`, `12.4 GB` (binary multiples, as `100M` in the config).
public enum ByteText {
    public static func describe(_ bytes: Int64) -> String {
        let units = ["B", "KB", "MB", "GB", "TB"]
        var value = Double(bytes)
        var unit = 0
        while abs(value) >= 1024 && unit < units.count - 1 {
            value /= 1024
            unit += 1
        }
        if unit == 0 { return "\(bytes) B" }
        let tenths = (value * 10).rounded() / 10
        return "\(tenths) \(units[unit])"
    }
}
