#if canImport(Glibc)
import Glibc
#endif

/// Facts about the running system, from `uname(2)`.
public enum SystemInfo {
    /// The kernel release (`uname -r`), e.g. `6.1.0-rpi7-rpi-v8`; nil when unknown.
    public static func kernelRelease() -> String? {
        uname(field: \.release)
    }

    /// The kernel's name (`uname -s`), e.g. `Linux`.
    public static func kernelName() -> String? {
        uname(field: \.sysname)
    }

    /// The machine (`uname -m`), e.g. `aarch64`.
    public static func machine() -> String? {
        uname(field: \.machine)
    }

    /// Processors online now (`sysconf(_SC_NPROCESSORS_ONLN)`).
    public static var onlineProcessors: Int { Int(sysconf(Int32(_SC_NPROCESSORS_ONLN))) }

    /// Clock ticks per second of /proc's CPU times (`sysconf(_SC_CLK_TCK)`).
    public static var clockTicksPerSecond: Int { Int(sysconf(Int32(_SC_CLK_TCK))) }

    private static func uname<Field>(field: KeyPath<utsname, Field>) -> String? {
        var u = utsname()
        guard Glibc.uname(&u) == 0 else { return nil }
        return withUnsafeBytes(of: u[keyPath: field]) { raw in String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self) }
    }
}
