#if canImport(Glibc)
import Glibc
#endif

/// Facts about the running system, from `uname(2)`, `sysconf(3)` and /proc.
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

    /// Memory the kernel can give processes without swapping (`MemAvailable` of
    /// /proc/meminfo), bytes. Where /proc/meminfo is hidden (a service with
    /// `ProcSubset=pid`), the free pages (`sysconf(_SC_AVPHYS_PAGES)`): that leaves out the
    /// page cache the kernel would give back, so it errs low. Nil where neither answers.
    public static func availableMemoryBytes() -> Int? {
        memAvailable() ?? freePages()
    }

    /// The free pages in bytes (glibc answers from sysinfo(2)).
    static func freePages() -> Int? {
        let pages = sysconf(Int32(_SC_AVPHYS_PAGES)), size = sysconf(Int32(_SC_PAGESIZE))
        guard pages > 0, size > 0 else { return nil }
        return pages.multipliedReportingOverflow(by: size).overflow ? nil : pages * size
    }

    /// `MemAvailable` of /proc/meminfo, bytes.
    static func memAvailable() -> Int? {
        guard let file = fopen("/proc/meminfo", "r") else { return nil }
        defer { fclose(file) }
        var line = [CChar](repeating: 0, count: 256)
        while fgets(&line, Int32(line.count), file) != nil {
            let text = String(decoding: line.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            guard text.hasPrefix("MemAvailable:") else { continue }
            let fields = text.split(separator: " ", omittingEmptySubsequences: true)
            guard fields.count >= 3, fields[2].hasPrefix("kB"), let kB = Int(fields[1]) else { return nil }
            return kB * 1024
        }
        return nil
    }

    private static func uname<Field>(field: KeyPath<utsname, Field>) -> String? {
        var u = utsname()
        guard Glibc.uname(&u) == 0 else { return nil }
        return withUnsafeBytes(of: u[keyPath: field]) { raw in String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self) }
    }
}
