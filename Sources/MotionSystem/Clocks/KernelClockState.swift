import CGPS      // only for <sys/timex.h>, which Swift's Glibc module leaves out
import SystemPackage
#if canImport(Glibc)
import Glibc
#endif

/// The kernel's view of the system clock's discipline, read with `ntp_adjtime(2)` and no
/// modes (the call then only reads). The one place the clock's synchronisation is asked.
public struct KernelClockState: Sendable, Equatable {
    /// The call's result: `TIME_OK` … `TIME_ERROR` (5: unsynchronised).
    public var state: Int32
    /// The `status` bits (`STA_UNSYNC`, `STA_PLL`, ...).
    public var status: Int32
    /// The kernel's estimated maximum error, µs.
    public var maxErrorMicroseconds: Int

    /// Reads the state; throws when the call is refused (a service with systemd's
    /// `ProtectClock=yes` may forbid even the read-only call).
    public static func read() throws(Errno) -> KernelClockState {
        var tx = timex()
        tx.modes = 0
        let state = try Syscall.retrying { ntp_adjtime(&tx) }
        return KernelClockState(state: state, status: Int32(tx.status), maxErrorMicroseconds: Int(tx.maxerror))
    }

    /// `TIME_ERROR` and `STA_UNSYNC` of `<sys/timex.h>`.
    public static let timeError = Int32(TIME_ERROR)
    public static let unsynchronisedFlag = Int32(STA_UNSYNC)
}
