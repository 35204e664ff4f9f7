#if canImport(Glibc)
import Glibc
#endif

/// Whether the kernel considers the system clock synchronised (NTP or GPS): `adjtimex(2)`
/// in read-only mode returns TIME_ERROR (5) while the clock is unsynchronised. Glibc's
/// module does not export `adjtimex`, so it is looked up by name; the call only reads
/// (modes = 0). Where a seccomp filter refuses it (the service's ProtectClock=yes), the
/// marker file systemd-timesyncd keeps while synchronised is used instead; nil: unknown.
enum ClockSync {
    /// Created by systemd-timesyncd once it has synchronised the clock.
    static let timesyncMarker = "/run/systemd/timesync/synchronized"

    private typealias AdjustTime = @convention(c) (UnsafeMutableRawPointer) -> Int32
    /// `TIME_ERROR` of `<sys/timex.h>`.
    private static let timeError: Int32 = 5

    static func isSynchronized() -> Bool? {
        guard let handle = dlopen(nil, RTLD_NOW), let symbol = dlsym(handle, "adjtimex") else { return nil }
        let adjtimex = unsafeBitCast(symbol, to: AdjustTime.self)
        // struct timex is at most a few hundred bytes on every ABI; modes (offset 0) = 0: read only.
        let buffer = UnsafeMutableRawPointer.allocate(byteCount: 1024, alignment: 16)
        defer { buffer.deallocate() }
        buffer.initializeMemory(as: UInt8.self, repeating: 0, count: 1024)
        let state = adjtimex(buffer)
        if state < 0 { return access(timesyncMarker, F_OK) == 0 ? true : nil }
        return state != timeError
    }
}
