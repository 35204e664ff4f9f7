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

    public let path: String
    public let minimumFreeBytes: Int64
    public let stats: FileSystemStats

    public init(path: String, minimumFreeBytes: Int64 = FreeSpaceGuard.defaultMinimumFreeBytes,
                stats: FileSystemStats = StatvfsFileSystemStats()) {
        self.path = path; self.minimumFreeBytes = minimumFreeBytes; self.stats = stats
    }

    /// Reads the space now and judges it.
    public func check() -> FreeSpaceVerdict {
        do {
            let space = try stats.space(at: path)
            if space.availableBytes < minimumFreeBytes {
                return .low(FreeSpaceReading(path: path, availableBytes: space.availableBytes, minimumFreeBytes: minimumFreeBytes))
            }
            return .enough(FreeSpaceReading(path: path, availableBytes: space.availableBytes, minimumFreeBytes: minimumFreeBytes))
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
        case .low(let r):
            return "only \(ByteText.describe(r.availableBytes)) free on \(r.path), below the \(ByteText.describe(r.minimumFreeBytes)) reserve (min_free_space): recording stopped before the card is full — copy the recordings off and delete them, or lower min_free_space"
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
