#if canImport(Glibc)
import Glibc
#endif

/// The machine's own network addresses, to tell a user where a server on a wildcard
/// address can be reached from another device.
public enum NetworkAddresses {
    /// IPv4 addresses of the interfaces that are up, loopback left out (`getifaddrs`), in
    /// the order the kernel lists them; empty when none or when they cannot be read.
    public static func ipv4() -> [String] {
        var first: UnsafeMutablePointer<ifaddrs>?
        guard getifaddrs(&first) == 0 else { return [] }
        defer { freeifaddrs(first) }
        var found: [String] = []
        var next = first
        while let entry = next {
            next = entry.pointee.ifa_next
            let flags = Int32(entry.pointee.ifa_flags)
            guard flags & Int32(IFF_UP) != 0, flags & Int32(IFF_LOOPBACK) == 0,
                  let address = entry.pointee.ifa_addr, address.pointee.sa_family == sa_family_t(AF_INET) else { continue }
            var text = [CChar](repeating: 0, count: Int(INET_ADDRSTRLEN))
            let ok = address.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { sin -> Bool in
                var a = sin.pointee.sin_addr
                return inet_ntop(AF_INET, &a, &text, socklen_t(text.count)) != nil
            }
            if ok {
                let s = String(decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
                if !found.contains(s) { found.append(s) }
            }
        }
        return found
    }
}
