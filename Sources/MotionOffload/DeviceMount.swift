import Foundation
import MotionSystem

/// A USB stick's partition as udev and blkid describe it.
public struct BlockDevice: Sendable, Equatable {
    /// File systems the offload writes to.
    public enum FileSystem: String, Sendable, CaseIterable {
        case vfat, exfat, ext4
    }
    public var path: String
    public var fileSystem: FileSystem
    public var label: String?

    /// Asks blkid what is on `path`; a file system we do not write to is an error that says so.
    public static func identify(_ path: String, runner: any ProcessRunning) throws(OffloadError) -> BlockDevice {
        guard FileManager.default.fileExists(atPath: path) else {
            throw OffloadError("use", path: path, reason: "no such device (is the stick plugged in? `lsblk` lists the partitions)")
        }
        let r = runner.run("blkid", ["-p", "-o", "export", path], environment: [:])
        guard r.status == 0 else {
            throw OffloadError("identify", path: path, reason: r.status == 2
                ? "no file system found on it (format the stick as FAT32, exFAT or ext4)"
                : "blkid failed: \(r.output.trimmingCharacters(in: .whitespacesAndNewlines))")
        }
        var fields: [String: String] = [:]
        for line in r.output.split(separator: "\n") {
            let kv = line.split(separator: "=", maxSplits: 1)
            if kv.count == 2 { fields[String(kv[0])] = String(kv[1]) }
        }
        guard let type = fields["TYPE"], let fs = FileSystem(rawValue: type) else {
            throw OffloadError("use", path: path, reason: "its file system is \(fields["TYPE"] ?? "unknown"); the offload writes FAT32 (vfat), exFAT or ext4")
        }
        return BlockDevice(path: path, fileSystem: fs, label: fields["LABEL"])
    }
}

/// A stick mounted for the offload alone: in a fresh folder only root can enter, without
/// device files, set-user-id programs or execution; unmounted (after a sync) by `unmount()`.
public final class MountedDevice: Sendable {
    public let device: BlockDevice
    public let mountPoint: String
    let runner: any ProcessRunning

    init(device: BlockDevice, mountPoint: String, runner: any ProcessRunning) {
        self.device = device
        self.mountPoint = mountPoint
        self.runner = runner
    }

    /// Mounts `device` under a new private folder in `parent` (default /run).
    public static func mount(_ device: BlockDevice, parent: String = "/run", runner: any ProcessRunning) throws(OffloadError) -> MountedDevice {
        let point: String
        do { point = try FileSystem.makeTemporaryDirectory(prefix: parent + "/motionlog-offload.") } catch {
            throw OffloadError("create a mount point in", path: parent, errno: error)
        }
        var options = ["nosuid", "nodev", "noexec", "noatime"]
        if device.fileSystem != .ext4 { options += ["uid=0", "gid=0", "fmask=0022", "dmask=0022"] }
        let r = runner.run("mount", ["-t", device.fileSystem.rawValue, "-o", options.joined(separator: ","), device.path, point], environment: [:])
        guard r.status == 0 else {
            try? FileSystem.removeDirectory(point)
            throw OffloadError("mount", path: device.path, reason: mountFailure(r.output, device.fileSystem))
        }
        return MountedDevice(device: device, mountPoint: point, runner: runner)
    }

    /// mount's complaint on one line, and what to do where the cause is known: a kernel
    /// without the stick's file system (many have no vfat or exfat module) says only
    /// "unknown filesystem type 'vfat'".
    static func mountFailure(_ output: String, _ fileSystem: BlockDevice.FileSystem) -> String {
        let said = output.split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespaces) }
            .filter { !$0.isEmpty }.joined(separator: " ")
        guard said.contains("unknown filesystem type") else { return said }
        return said + " — this kernel has no \(fileSystem.rawValue) driver: `sudo modprobe \(fileSystem.rawValue)` loads it "
            + "where it is installed; or use a stick formatted ext4 (`sudo mkfs.ext4 -L MOTIONLOG /dev/sdX1`, which erases it)"
    }

    /// Flushes and unmounts; the stick may be pulled once this returns without error.
    public func unmount() throws(OffloadError) {
        FileSystem.syncAll()
        let r = runner.run("umount", [mountPoint], environment: [:])
        // Unmounted under the run (`umount -l`, a desktop's eject): as if this had done it.
        // It said "not mounted — do not pull the stick yet", which nothing ever took back.
        guard r.status == 0 || !Self.isMountPoint(mountPoint) else {
            throw OffloadError("unmount", path: mountPoint, reason: r.output.trimmingCharacters(in: .whitespacesAndNewlines) + " — do not pull the stick yet")
        }
        try? FileSystem.removeDirectory(mountPoint)
    }

    /// Whether a file system is mounted at `path` (it is on another device than its folder).
    static func isMountPoint(_ path: String) -> Bool {
        guard let here = try? FileSystem.status(path),
              let parent = try? FileSystem.status((path as NSString).deletingLastPathComponent) else { return false }
        return here.device != parent.device
    }
}
