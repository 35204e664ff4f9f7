import Foundation
import MotionTestSupport
@testable import MotionOffload
import Testing

/// Mounting a stick: what the user is told when mount refuses it.
@Suite struct DeviceMountTests {
    /// mount as a kernel without the FAT driver answers it (util-linux 2.38's words).
    struct KernelWithoutDriver: ProcessRunning {
        func run(_ executable: String, _ arguments: [String], environment: [String: String]) -> ProcessResult {
            let type = arguments.count > 1 ? arguments[1] : "?"
            return ProcessResult(status: 32, output: """
                mount: /run/motionlog-offload.G9FerU: unknown filesystem type '\(type)'.
                       dmesg(1) may have more information after failed mount system call.

                """)
        }
    }

    /// A stick whose file system the kernel cannot mount: the message is one line that
    /// names the device, the missing driver and the two ways out; no mount point is left.
    @Test(arguments: [BlockDevice.FileSystem.vfat, .exfat])
    func aKernelWithoutTheSticksFileSystemSaysWhatToDo(_ fs: BlockDevice.FileSystem) throws {
        let parent = ScratchFolder.make("mount")
        let stick = BlockDevice(path: "/dev/sda1", fileSystem: fs, label: "MOTIONLOG")
        do {
            _ = try MountedDevice.mount(stick, parent: parent, runner: KernelWithoutDriver())
            Issue.record("mount succeeded")
        } catch {
            let text = error.description
            #expect(text.hasPrefix("cannot mount /dev/sda1: mount: "))
            #expect(!text.contains("\n"))
            #expect(text.contains("this kernel has no \(fs.rawValue) driver: `sudo modprobe \(fs.rawValue)`"))
            #expect(text.contains("formatted ext4"))
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: parent).isEmpty)
    }

    /// umount as it answers for a mount point that is no longer mounted.
    struct NotMounted: ProcessRunning {
        func run(_ executable: String, _ arguments: [String], environment: [String: String]) -> ProcessResult {
            ProcessResult(status: 32, output: "umount: \(arguments.last ?? ""): not mounted.\n")
        }
    }

    /// A stick unmounted under the run (`umount -l`, a desktop's eject) is unmounted: no
    /// "do not pull the stick yet", which nothing ever took back, and no mount point left.
    /// A refusal while it is still mounted is still said.
    @Test func aStickUnmountedUnderTheRunIsUnmounted() throws {
        let parent = ScratchFolder.make("mount")
        let point = parent + "/motionlog-offload.test"
        try FileManager.default.createDirectory(atPath: point, withIntermediateDirectories: true)
        let stick = BlockDevice(path: "/dev/sda1", fileSystem: .ext4, label: "MOTIONLOG")
        try MountedDevice(device: stick, mountPoint: point, runner: NotMounted()).unmount()
        #expect(!FileManager.default.fileExists(atPath: point))
        guard let busy = SmallFileSystem(bytes: 1 << 20) else { return }   // root: a real mount point
        defer { busy.undo() }
        #expect(throws: OffloadError.self) { try MountedDevice(device: stick, mountPoint: busy.path, runner: NotMounted()).unmount() }
    }

    /// A manifest that could not be written is said in the report's lines (what the daemon's
    /// status shows), not only beside the target's manifest, which a stick unmounted under
    /// the run no longer has.
    @Test func aManifestThatCouldNotBeWrittenIsSaidInTheReport() {
        var report = FolderOffloadReport()
        #expect(!report.lines().contains { $0.contains("manifest.csv could not be written") })
        report.manifestIncomplete = true
        #expect(report.lines().contains { $0.hasPrefix("manifest.csv could not be written: the files copied last are on the target and verified") })
    }

    /// Other refusals are passed on as mount said them, without advice that may not apply.
    @Test func otherMountErrorsAreShownAsTheyAre() {
        let said = "mount: /run/x: wrong fs type, bad option, bad superblock on /dev/sda1.\n"
        #expect(MountedDevice.mountFailure(said, .ext4) == "mount: /run/x: wrong fs type, bad option, bad superblock on /dev/sda1.")
    }
}
