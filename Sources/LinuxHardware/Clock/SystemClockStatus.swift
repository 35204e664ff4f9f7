import MotionSystem

/// Whether the system clock (CLOCK_REALTIME) is synchronised to a time source, as the
/// kernel's NTP state says (`KernelClockState`: `ntp_adjtime` with no modes only reads it). The kernel
/// keeps `STA_UNSYNC` set until a time service (chrony, systemd-timesyncd, ntpd, gpsd via
/// chrony) disciplines the clock, and `ntp_adjtime` returns `TIME_ERROR` while unsynchronised.
/// A Raspberry Pi has no real-time clock: booted without network its clock starts from
/// the last shutdown (fake-hwclock) or 1970, and reads as unsynchronised here.
public struct SystemClockStatus: Sendable, Equatable, CustomStringConvertible {
    /// True when the kernel considers the clock synchronised.
    public var synchronised: Bool
    /// The kernel's estimated maximum error, µs (when reported).
    public var maxErrorMicroseconds: Int?
    /// Why, in words (for the log and the metadata).
    public var detail: String

    public init(synchronised: Bool, maxErrorMicroseconds: Int? = nil, detail: String) {
        self.synchronised = synchronised; self.maxErrorMicroseconds = maxErrorMicroseconds; self.detail = detail
    }

    /// Created by systemd-timesyncd while it keeps the clock synchronised.
    public static let timesyncMarker = "/run/systemd/timesync/synchronized"

    /// Reads the kernel's state now. Where the call is refused (a service with systemd's
    /// `ProtectClock=yes` may forbid even the read-only call), systemd-timesyncd's marker
    /// file decides; without it the clock is reported unsynchronised, so GPS time is
    /// preferred — the safe side.
    public static func current() -> SystemClockStatus {
        let kernel: KernelClockState
        do { kernel = try KernelClockState.read() } catch {
            let reason = "\(error)"
            if FileSystem.isReachable(timesyncMarker) {
                return SystemClockStatus(synchronised: true,
                                         detail: "ntp_adjtime refused (\(reason)); systemd-timesyncd reports the clock synchronised")
            }
            return SystemClockStatus(synchronised: false,
                                     detail: "ntp_adjtime refused (\(reason)) and no time service reports synchronisation: treated as unsynchronised")
        }
        return interpret(state: kernel.state, status: kernel.status, maxError: kernel.maxErrorMicroseconds)
    }

    /// The decision, separated from the syscall so it can be tested: synchronised unless the
    /// call returned `TIME_ERROR` or the status has `STA_UNSYNC`.
    public static func interpret(state: Int32, status: Int32, maxError: Int) -> SystemClockStatus {
        let unsyncFlag = status & KernelClockState.unsynchronisedFlag != 0
        if state == KernelClockState.timeError || unsyncFlag {
            let why = unsyncFlag ? "the kernel flags the clock unsynchronised (STA_UNSYNC)" : "ntp_adjtime reports TIME_ERROR"
            return SystemClockStatus(synchronised: false, maxErrorMicroseconds: maxError,
                                     detail: "\(why): no time service has set it")
        }
        return SystemClockStatus(synchronised: true, maxErrorMicroseconds: maxError,
                                 detail: "synchronised by a time service (max error \(maxError) µs)")
    }

    public var description: String { detail }
}
