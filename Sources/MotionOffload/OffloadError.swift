import SystemPackage

/// A problem while offloading: what failed, on which path, and (where known) the system's
/// reason. Its description is a sentence a user can act on.
public struct OffloadError: Error, CustomStringConvertible, Sendable, Equatable {
    public var operation: String
    public var path: String
    public var reason: String
    /// The system's error, when one caused it.
    public var errno: Errno?
    /// The copy was stopped on request (`OffloadStop`), not failed.
    public var isStop = false
    /// Nothing more is copied after it, whatever the cause (the manifest could not be written).
    var endsTheRun = false

    public init(_ operation: String, path: String, reason: String) {
        self.operation = operation
        self.path = path
        self.reason = reason
    }

    public init(_ operation: String, path: String, errno: Errno) {
        self.init(operation, path: path, reason: Self.explain(errno))
        self.errno = errno
    }

    /// Reading `path` (to copy or verify it) stopped on request (`OffloadStop`).
    static func stopped(_ path: String, by reason: String) -> OffloadError {
        var e = OffloadError("finish reading", path: path, reason: "stopped by \(reason)")
        e.isStop = true
        return e
    }

    /// After this error nothing more can be written to the target: it is full, read-only or
    /// gone, or the offload was asked to stop.
    public var endsTheCopy: Bool {
        if isStop || endsTheRun { return true }
        guard let errno else { return false }
        return [.noSpace, .readOnlyFileSystem].contains(errno) || Self.targetGone.contains(errno)
    }

    /// Errors that say the target went away: a stick pulled out (EIO, ENODEV, ENXIO), a FUSE
    /// file system whose process ended (ENOTCONN), a network share lost (ESTALE, EHOSTDOWN,
    /// ETIMEDOUT). An exFAT stick mounted through FUSE that was pulled out gave one error per
    /// file left, each naming an unfinished copy that never existed.
    static let targetGone: [Errno] = [.ioError, .operationNotSupportedByDevice, .noSuchAddressOrDevice, .socketNotConnected,
                                      .staleNFSFileHandle, .hostIsDown, .timedOut]

    /// The same error, ending the copy.
    var endingTheCopy: OffloadError {
        var e = self
        e.endsTheRun = true
        return e
    }

    public var description: String { "cannot \(operation) \(path): \(reason)" }

    /// Plain words for the errors a stick or a card gives.
    static func explain(_ e: Errno) -> String {
        switch e {
        case .noSpace: return "no space left on the target"
        case .readOnlyFileSystem: return "the file system is read-only (a write-protect switch, or errors made the kernel remount it read-only)"
        case .ioError: return "input/output error (was the stick pulled out?); plug it in again and run the offload again: what was verified stays, the rest is copied"
        case .noSuchFileOrDirectory: return "it does not exist"
        case .permissionDenied, .notPermitted: return "permission denied"
        case .fileTooLarge: return "the file is too large for this file system"
        case .operationNotSupportedByDevice, .noSuchAddressOrDevice, .socketNotConnected:
            return "the device is gone (was the stick pulled out?); plug it in again and run the offload again: what was verified stays, the rest is copied"
        case .staleNFSFileHandle, .hostIsDown, .timedOut:
            return "the network share went away (\(e)); when it is back, run the offload again: what was verified stays, the rest is copied"
        default: return "\(e)"
        }
    }
}
