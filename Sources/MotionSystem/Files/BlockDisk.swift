/// The disk a block device belongs to, from sysfs (`/sys/dev/block/MAJOR:MINOR` links to
/// `…/block/DISK` or `…/block/DISK/PARTITION`): a partition of the card that holds the
/// recordings is no USB stick, even when it is not the recordings' own partition.
public enum BlockDisk {
    /// The kernel name of the whole disk (`sda`, `mmcblk0`, `nvme0n1`, `loop0`) that device
    /// number `device` is or is a partition of; nil where sysfs has no block device for it
    /// (tmpfs, overlay, FUSE).
    public static func name(ofDevice device: UInt64) -> String? {
        let major = ((device >> 8) & 0xfff) | ((device >> 32) & ~UInt64(0xfff))
        let minor = (device & 0xff) | ((device >> 12) & ~UInt64(0xff))
        guard major != 0, let target = try? FileSystem.readLink("/sys/dev/block/\(major):\(minor)") else { return nil }
        return disk(fromSysfsPath: target)
    }

    /// `../../devices/…/block/sda/sda1` → `sda`; `../../devices/virtual/block/loop0` → `loop0`.
    public static func disk(fromSysfsPath path: String) -> String? {
        let parts = path.split(separator: "/")
        guard let i = parts.lastIndex(of: "block"), i + 1 < parts.count else { return nil }
        return String(parts[i + 1])
    }
}
