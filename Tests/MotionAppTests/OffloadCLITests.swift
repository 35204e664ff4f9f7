import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// `motionlog offload` as a user runs it: into a folder, and (as root) onto real file
/// systems on loop devices — mounted, verified, unmounted, resumed after a kill.
@Suite("offload command", .serialized)
struct OffloadCLITests {
    typealias S = DaemonTestSupport

    /// A recording made by the recorder itself: rotated into `count` files (parts) of
    /// `seconds` each, at 100 Hz; each part a CSV and its metadata.
    func recordings(seconds: Int = 20, count: Int = 3, rate: Int = 100) throws -> String {
        let dir = Binary.temporaryDirectory()
        let r = try Binary.run(["record", "--board", "simulator", "--boards-dir", S.repo + "/boards", "--fast",
                                "--duration", "\(seconds * count)", "--rotate-time", "\(seconds)", "--rate", "\(rate)",
                                "--out", dir, "--quiet", "--config", S.emptyConfig()])
        #expect(r.status == 0, "\(r.stderr)")
        return dir
    }

    func names(_ dir: String) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: dir)) ?? []).sorted()
    }

    func run(_ args: [String]) throws -> Binary.Result {
        try Binary.run(["offload"] + args + ["--config", S.emptyConfig()])
    }

    @Test func copiesIntoAFolderNamedAfterTheHostAndOnlyOnce() throws {
        let source = try recordings()
        let target = Binary.temporaryDirectory()
        let status = Binary.temporaryDirectory() + "/offload.json"
        let first = try run(["--to", target, "--out", source, "--status-file", status])
        #expect(first.status == 0, "\(first.stdout)\(first.stderr)")
        // Three parts of one recording are one recording (it said "Copied 3 recordings").
        #expect(first.stdout.contains("Copied 1 recording (6 files, "), "\(first.stdout)")
        let progress = try String(contentsOfFile: status, encoding: .utf8)
        #expect(progress.contains("\"recordings_total\":1") && progress.contains("\"files_total\":6"), "\(progress)")
        let host = try #require(names(target).first)
        let copied = names(target + "/" + host)
        #expect(copied.filter { $0.hasSuffix(".csv") && $0 != "manifest.csv" } == names(source).filter { $0.hasSuffix(".csv") })
        #expect(copied.contains("manifest.csv") && !copied.contains { $0.hasSuffix(".part") })
        let second = try run(["--to", target, "--out", source])
        #expect(second.status == 0 && second.stdout.contains("Copied 0 recordings; 1 already there (6 files)."), "\(second.stdout)")
    }

    /// The folder an offload filled is read as the recordings it holds: its manifest is no
    /// recording. `check` said "manifest.csv: INVALID (11 errors)", exit 1, `summary`
    /// counted its lines as defective rows and `export` skipped them with a warning.
    @Test func aCopiedFolderReadsAsItsRecordingsWithoutTheManifest() throws {
        let source = try recordings(seconds: 3, count: 2)
        let target = Binary.temporaryDirectory()
        #expect(try run(["--to", target, "--out", source]).status == 0)
        let host = try #require(names(target).first.map { target + "/" + $0 })
        #expect(names(host).contains("manifest.csv"))
        let check = try Binary.run(["check", host])
        #expect(check.status == 0 && !(check.stdout + check.stderr).contains("manifest"), "\(check.stdout) \(check.stderr)")
        let summary = try Binary.run(["summary", host, "--json"])
        #expect(summary.status == 0 && !summary.stderr.contains("manifest"), "\(summary.stderr)")
        let files = try JSONSerialization.jsonObject(with: Data(summary.stdout.utf8)) as? [String: Any]
        #expect((files?["files"] as? [Any])?.count == 2, "\(summary.stdout.prefix(400))")
        #expect(!(try Binary.run(["summary", host])).stdout.contains("defective"))
        let export = try Binary.run(["export", host, "--format", "wide-csv"])
        #expect(export.status == 0 && !export.stderr.contains("manifest"), "\(export.stderr)")
        // A file of that name that is not an offload's manifest is read as any CSV.
        try "Source, Label, When, X, Y, Z, UA_X, UA_Y, UA_Z, Pitch, Roll, Yaw\n".write(toFile: source + "/manifest.csv", atomically: false, encoding: .utf8)
        #expect(try Binary.run(["check", source]).stdout.contains("manifest.csv"))
    }

    /// A status file that cannot be written is refused before anything is copied (in a
    /// folder that did not exist the offload ran, exit 0, and never wrote it).
    @Test func aStatusFileThatCannotBeWrittenIsRefusedFirst() throws {
        let source = try recordings(seconds: 2, count: 1)
        let target = Binary.temporaryDirectory()
        for (status, said) in [(target + "/missing/st.json", "does not exist"), (target, "is a folder")] {
            let r = try run(["--to", target, "--out", source, "--status-file", status])
            #expect(r.status == 2 && r.stderr.contains("--status-file") && r.stderr.contains(said), "\(r.stderr)")
        }
        #expect(names(target).isEmpty)
        let ok = try run(["--to", target, "--out", source, "--status-file", target + "/st.json"])
        #expect(ok.status == 0 && FileManager.default.fileExists(atPath: target + "/st.json"), "\(ok.stderr)")
    }

    /// Without --out or a config's out, the folder `record` and `serve` default to
    /// (./recordings) is offloaded, as the installed service's would be; never a guess
    /// between both.
    @Test func withoutOutTheRecordingsFolderHereIsUsed() throws {
        let here = Binary.temporaryDirectory()
        let target = Binary.temporaryDirectory()
        let installedExists = FileManager.default.fileExists(atPath: OffloadCLITests.installed)
        let none = try Binary.run(via: Binary.path, ["offload", "--to", target, "--config", S.emptyConfig()], in: here)
        #expect(installedExists || none.status == 2 && none.stderr.contains("which recordings? neither /var/lib/motionlog/recordings nor ./recordings exists"),
                "\(none.stderr)")
        try FileManager.default.moveItem(atPath: try recordings(seconds: 4, count: 1), toPath: here + "/recordings")
        let r = try Binary.run(via: Binary.path, ["offload", "--to", target, "--config", S.emptyConfig()], in: here)
        if installedExists {
            #expect(r.status == 2 && r.stderr.contains("both"), "\(r.stderr)")
        } else {
            #expect(r.status == 0 && r.stdout.contains("Copied 1 recording"), "\(r.stdout)\(r.stderr)")
        }
    }
    static let installed = "/var/lib/motionlog/recordings"

    /// SIGTERM (from `kill`, as a service manager sends it) while rclone uploads: the offload
    /// ends rclone, removes its temporary files and says what was not sent. Before, the
    /// signal killed motionlog alone, and rclone and /tmp/motionlog-XXXX stayed behind.
    @Test func aSignalDuringAnUploadEndsRcloneAndSaysWhatWasNotSent() throws {
        let source = try recordings(seconds: 4, count: 1)
        let bin = Binary.temporaryDirectory(), tmp = Binary.temporaryDirectory()
        // rclone that signals its parent (motionlog) as soon as a copy starts, then waits.
        let fake = """
            #!/bin/sh
            case "$1" in
              listremotes) echo "nas:" ;;
              copy) kill -TERM $PPID; exec sleep 300 ;;
              *) exit 0 ;;
            esac
            """
        try fake.write(toFile: bin + "/rclone", atomically: true, encoding: .utf8)
        #expect(chmod(bin + "/rclone", 0o755) == 0)
        let path = bin + ":" + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin")
        let r = try Binary.run(via: "/usr/bin/env", ["PATH=" + path, "TMPDIR=" + tmp, Binary.path, "offload",
                                                     "--remote-path", "nas:rides", "--out", source, "--config", S.emptyConfig()])
        #expect(r.status == 1, "\(r.stdout)\(r.stderr)")
        #expect(r.stderr.contains("SIGTERM: stopping the offload"), "\(r.stderr)")
        #expect(r.stdout.contains("Stopped by SIGTERM: 2 files of 1 recording not sent"), "\(r.stdout)")
        #expect(names(tmp).isEmpty, "\(names(tmp))")
        #expect(!names(source).contains(".motionlog-sent.csv"))
    }

    @Test func saysWhatIsWrongWithAnUnusableTarget() throws {
        let source = try recordings(seconds: 2, count: 1)
        let none = try run(["--to", "/proc/self", "--out", source])
        #expect(none.status == 2 && none.stderr.contains("cannot"))
        let twoTargets = try run(["--to", "/tmp", "--remote", "--out", source])
        #expect(twoTargets.status == 2 && twoTargets.stderr.contains("one target"))
        let noRemote = try run(["--remote", "--out", source])
        #expect(noRemote.status == 2 && noRemote.stderr.contains("offload.remote"))
        // A mistyped or unmounted stick path was created on the card and copied to.
        let nowhere = Binary.temporaryDirectory() + "/media/STICK"
        let missing = try run(["--to", nowhere, "--out", source])
        #expect(missing.status == 2 && missing.stderr.contains("no such folder — mount the stick first"), "\(missing.stderr)")
        #expect(!FileManager.default.fileExists(atPath: nowhere))
        // Deleting after a copy onto the card's own file system would leave no second copy.
        let sameDisk = Binary.temporaryDirectory()
        let deleting = try run(["--to", sameDisk, "--out", source, "--delete-after-copy"])
        #expect(deleting.status == 2 && deleting.stderr.contains("same file system as the recordings"), "\(deleting.stderr)")
        #expect(names(source).contains { $0.hasSuffix(".csv") } && names(sameDisk).isEmpty)
    }

    /// A target the user may not write in is refused at once (exit 2), not file by file
    /// (exit 1, with "manifest.csv lists every verified file" though none was written).
    @Test func aTargetTheUserCannotWriteInIsRefusedAtOnce() throws {
        let source = try recordings(seconds: 2, count: 1)
        let target = Binary.temporaryDirectory()
        let r: Binary.Result
        if getuid() == 0 {
            // Root writes anywhere: user nobody against root-owned 0755 folders.
            let host = try #require(try run(["--to", target, "--out", source]).status == 0 ? names(target).first : nil)
            for f in names(target + "/" + host) { try FileManager.default.removeItem(atPath: target + "/" + host + "/" + f) }
            #expect(chmod(target + "/" + host, 0o755) == 0)
            r = try Binary.run(via: "/usr/bin/setpriv", ["--reuid=65534", "--regid=65534", "--clear-groups", Binary.path,
                                                         "offload", "--to", target, "--out", source, "--config", S.emptyConfig()])
        } else {
            #expect(chmod(target, 0o555) == 0)
            r = try run(["--to", target, "--out", source])
        }
        #expect(r.status == 2 && r.stderr.contains("cannot write in the folder"), "\(r.status) \(r.stdout) \(r.stderr)")
        #expect(!r.stdout.contains("manifest.csv lists"))
    }

    /// A card file that cannot be read is that recording's failure (exit 1), and the others
    /// are copied: it ended the whole run with exit 2 ("cannot open …: permission denied"),
    /// nothing copied, where the stick held a copy the manifest did not list (made by hand,
    /// or the manifest lost), so the card's file was hashed first.
    @Test func aCardFileThatCannotBeReadFailsOnlyItsRecording() throws {
        let source = try recordings(seconds: 2, count: 2)
        let target = Binary.temporaryDirectory()
        let first = try #require(run(["--to", target, "--out", source]).status == 0 ? names(target).first : nil)
        let host = target + "/" + first
        let csvs = names(source).filter { $0.hasSuffix(".csv") }.sorted()
        #expect(csvs.count == 2)
        for f in names(host) where f != csvs[0] { try FileManager.default.removeItem(atPath: host + "/" + f) }
        #expect(chmod(source + "/" + csvs[0], 0o600) == 0)
        let r: Binary.Result
        if getuid() == 0 {
            // Root reads everything: user nobody, who may write on the stick but not read that file.
            for dir in [target, host] { #expect(chmod(dir, 0o777) == 0) }
            #expect(chmod(host + "/" + csvs[0], 0o666) == 0)
            r = try Binary.run(via: "/usr/bin/setpriv", ["--reuid=65534", "--regid=65534", "--clear-groups", Binary.path,
                                                         "offload", "--to", target, "--out", source, "--config", S.emptyConfig()])
        } else {
            #expect(chmod(source + "/" + csvs[0], 0o000) == 0)
            r = try run(["--to", target, "--out", source])
        }
        #expect(r.status == 1, "\(r.status) \(r.stdout) \(r.stderr)")
        #expect((r.stdout + r.stderr).contains("cannot open " + source + "/" + csvs[0]), "\(r.stdout) \(r.stderr)")
        #expect(FileManager.default.contentsEqual(atPath: source + "/" + csvs[1], andPath: host + "/" + csvs[1]))
    }

    /// An input/output error reading a file of the card (a bad sector) is that recording's
    /// alone: the run goes on with the others, and the message blames the card, not a
    /// stick pulled out. The same error on the stick ends the run. Before the rule, every
    /// EIO ended the run. The error is made by a library preloaded into the real binary
    /// that fails each `read` of the one file, as a failing card does.
    @Test(.enabled(if: EIOOnRead.canBuild, "needs a C compiler (cc) to build the read-error library; skipped"))
    func aCardFileWithAnInputOutputErrorFailsOnlyItsRecording() throws {
        let source = try recordings(seconds: 2, count: 3)
        let target = Binary.temporaryDirectory()
        let csvs = names(source).filter { $0.hasSuffix(".csv") }.sorted()
        #expect(csvs.count == 3)
        let library = try EIOOnRead.build()
        let r = try Binary.run(via: "/usr/bin/env", ["LD_PRELOAD=" + library, EIOOnRead.pathVariable + "=" + source + "/" + csvs[1],
                                                     Binary.path, "offload", "--to", target, "--out", source,
                                                     "--config", S.emptyConfig()])
        #expect(r.status == 1, "\(r.status) \(r.stdout) \(r.stderr)")
        let said = r.stdout + r.stderr
        #expect(said.contains(source + "/" + csvs[1]) && said.contains("reading the card (it may be failing)"), "\(said)")
        #expect(!said.contains("pulled out"), "\(said)")
        let host = try #require(names(target).first.map { target + "/" + $0 })
        for k in [0, 2] {
            #expect(FileManager.default.contentsEqual(atPath: source + "/" + csvs[k], andPath: host + "/" + csvs[k]), "\(csvs[k]) \(names(host))")
        }
        #expect(!names(host).contains(where: { $0.hasPrefix(csvs[1]) }), "\(names(host))")
    }

    // MARK: Real file systems on loop devices (root only)

    static var isRoot: Bool { getuid() == 0 }
    static var canLoop: Bool { isRoot && FileManager.default.fileExists(atPath: "/dev/loop-control") && tool("mkfs.ext4") != nil }
    static func kernelHas(_ fs: String) -> Bool {
        ((try? String(contentsOfFile: "/proc/filesystems", encoding: .utf8)) ?? "").split(separator: "\n")
            .contains { $0.split(separator: "\t").last.map(String.init) == fs }
    }
    static func tool(_ name: String) -> String? {
        ["/usr/sbin/", "/sbin/", "/usr/bin/", "/bin/"].map { $0 + name }.first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    /// A file-system image on a loop device; detached (and unmounted) by `close()`.
    struct LoopStick {
        let image: String
        let device: String
        init(megabytes: Int, fileSystem: String, label: String) throws {
            image = Binary.temporaryDirectory() + "/stick.img"
            #expect(FileManager.default.createFile(atPath: image, contents: nil))
            #expect(truncate(image, off_t(megabytes) << 20) == 0)
            let mkfs = fileSystem == "ext4"
                ? try Binary.run(via: try #require(tool("mkfs.ext4")), ["-q", "-F", "-L", label, image])
                : try Binary.run(via: try #require(tool("mkfs.vfat")), ["-n", label, image])
            #expect(mkfs.status == 0, "\(mkfs.stderr)")
            let attach = try Binary.run(via: try #require(tool("losetup")), ["--show", "-f", image])
            #expect(attach.status == 0, "\(attach.stderr)")
            device = attach.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        }
        /// Mounts it to look at it, runs `body`, unmounts.
        func inspect<T>(_ body: (String) throws -> T) throws -> T {
            let point = Binary.temporaryDirectory()
            let m = try Binary.run(via: try #require(tool("mount")), [device, point])
            #expect(m.status == 0, "\(m.stderr)")
            defer { _ = try? Binary.run(via: tool("umount") ?? "/bin/umount", [point]) }
            return try body(point)
        }
        var mountedSomewhere: Bool {
            ((try? String(contentsOfFile: "/proc/mounts", encoding: .utf8)) ?? "").split(separator: "\n").contains { $0.hasPrefix(device + " ") }
        }
        /// Unmounts and detaches (the stick pulled out); the image stays.
        func detach() {
            for line in ((try? String(contentsOfFile: "/proc/mounts", encoding: .utf8)) ?? "").split(separator: "\n") where line.hasPrefix(device + " ") {
                let point = line.split(separator: " ")[1]
                _ = try? Binary.run(via: tool("umount") ?? "/bin/umount", [String(point)])
                // The private mount point of an offload killed mid-copy: each test run left one in /run.
                if point.hasPrefix("/run/motionlog-offload.") { rmdir(String(point)) }
            }
            _ = try? Binary.run(via: tool("losetup") ?? "/sbin/losetup", ["-d", device])
        }
        func close() {
            detach()
            unlink(image)
        }
    }

    @Test(.enabled(if: canLoop, "needs root and loop devices (run make test as root); skipped"))
    func anExt4StickGetsVerifiedCopiesIsUnmountedAndIsNotCopiedTwice() throws {
        let source = try recordings()
        let stick = try LoopStick(megabytes: 64, fileSystem: "ext4", label: "MOTIONLOG")
        defer { stick.close() }
        let status = Binary.temporaryDirectory() + "/offload.json"
        let first = try run([stick.device, "--out", source, "--only-offload-sticks", "--status-file", status])
        #expect(first.status == 0, "\(first.stdout)\(first.stderr)")
        #expect(first.stdout.contains("Copied 1 recording (6 files, ") && first.stdout.contains("may be pulled out"))
        // The private mount point is gone by then: the target is named on the stick.
        #expect(first.stdout.contains("Target: the folder ") && first.stdout.contains(" on \(stick.device) ("), "\(first.stdout)")
        #expect(!first.stdout.contains("/run/motionlog-offload"), "\(first.stdout)")
        #expect(!stick.mountedSomewhere)
        let progress = try String(contentsOfFile: status, encoding: .utf8)
        #expect(progress.contains("\"state\":\"done\"") && progress.contains(stick.device))
        try stick.inspect { point in
            let host = try #require(names(point).first { $0 != "lost+found" })
            for name in names(source) where name.hasSuffix(".csv") || name.hasSuffix(".json") {
                #expect(FileManager.default.contents(atPath: point + "/" + host + "/" + name) == FileManager.default.contents(atPath: source + "/" + name), "\(name)")
            }
        }
        let again = try run([stick.device, "--out", source])
        #expect(again.status == 0 && again.stdout.contains("Copied 0 recordings"))
    }

    @Test(.enabled(if: canLoop, "needs root and loop devices (run make test as root); skipped"))
    func aWriteProtectedStickIsSaidToBeReadOnly() throws {
        let source = try recordings(seconds: 2, count: 1)
        let stick = try LoopStick(megabytes: 16, fileSystem: "ext4", label: "MOTIONLOG")
        defer { stick.close() }
        let status = Binary.temporaryDirectory() + "/offload.json"
        // A stick used before (its host folder exists), emptied, then write-protected.
        #expect(try run([stick.device, "--out", source]).status == 0)
        try stick.inspect { point in
            let host = try #require(names(point).first { $0 != "lost+found" })
            for name in names(point + "/" + host) { try FileManager.default.removeItem(atPath: point + "/" + host + "/" + name) }
        }
        #expect(try Binary.run(via: Self.tool("blockdev") ?? "/sbin/blockdev", ["--setro", stick.device]).status == 0)
        let r = try run([stick.device, "--out", source, "--status-file", status])
        #expect(r.status != 0)
        let said = r.stdout + r.stderr
        #expect(said.contains("read-only") && !said.contains("unfinished copy"), "\(said)")
        let progress = try String(contentsOfFile: status, encoding: .utf8)
        #expect(!said.contains("/run/motionlog-offload") && !progress.contains("/run/motionlog-offload"), "\(said)\n\(progress)")
        #expect(said.contains(stick.device + ":/"), "\(said)")
        #expect(!stick.mountedSomewhere)
        _ = try? Binary.run(via: Self.tool("blockdev") ?? "/sbin/blockdev", ["--setrw", stick.device])
    }

    @Test(.enabled(if: canLoop, "needs root and loop devices (run make test as root); skipped"))
    func aStickWithAnotherLabelIsLeftAlone() throws {
        let source = try recordings(seconds: 2, count: 1)
        let stick = try LoopStick(megabytes: 16, fileSystem: "ext4", label: "HOLIDAY")
        defer { stick.close() }
        let r = try run([stick.device, "--out", source, "--only-offload-sticks"])
        #expect(r.status == 0 && r.stdout.contains("not an offload stick"))
        try stick.inspect { point in #expect(names(point) == ["lost+found"]) }
    }

    @Test(.enabled(if: canLoop, "needs root and loop devices (run make test as root); skipped"))
    func aNearlyFullStickGetsTheOldestRecordingsAndSaysWhatDidNotFit() throws {
        let source = try recordings(seconds: 20, count: 4, rate: 200)
        let stick = try LoopStick(megabytes: 64, fileSystem: "ext4", label: "MOTIONLOG")
        defer { stick.close() }
        // Fill the stick to about 90 %.
        try stick.inspect { point in
            let free = try #require(try FileManager.default.attributesOfFileSystem(forPath: point)[.systemFreeSize] as? Int64)
            let size = try #require(try FileManager.default.attributesOfFileSystem(forPath: point)[.systemSize] as? Int64)
            let fill = max(0, free - size / 10)
            #expect(FileManager.default.createFile(atPath: point + "/filler", contents: Data(count: Int(fill))))
        }
        let csvs = names(source).filter { $0.hasSuffix(".csv") }
        let r = try run([stick.device, "--out", source])
        #expect(r.status == 1, "\(r.stdout)\(r.stderr)")
        #expect(r.stdout.contains("Did not fit"))
        let onStick = try stick.inspect { point -> [String] in
            let host = try #require(names(point).first { $0 != "lost+found" && $0 != "filler" })
            return names(point + "/" + host)
        }
        let copied = onStick.filter { name in name.hasSuffix(".csv") && name != "manifest.csv" }
        #expect(!copied.isEmpty && copied.count < csvs.count)
        #expect(copied == Array(csvs.prefix(copied.count)), "oldest first")
    }

    @Test(.enabled(if: canLoop, "needs root and loop devices (run make test as root); skipped"))
    func aCopyKilledHalfwayLeavesNothingThatLooksCompleteAndResumes() throws {
        let source = try recordings(seconds: 300, count: 1, rate: 1000)
        let stick = try LoopStick(megabytes: 256, fileSystem: "ext4", label: "MOTIONLOG")
        defer { stick.close() }
        let p = Process()
        p.executableURL = URL(fileURLWithPath: Binary.path)
        p.arguments = ["offload", stick.device, "--out", source, "--config", S.emptyConfig()]
        p.standardOutput = FileHandle.nullDevice
        p.standardError = FileHandle.nullDevice
        try p.run()
        // Wait for the copy to be under way (a .part file on the mounted stick), then kill it.
        var partSeen = false
        for _ in 0..<20_000 where !partSeen {
            for line in ((try? String(contentsOfFile: "/proc/mounts", encoding: .utf8)) ?? "").split(separator: "\n") where line.hasPrefix(stick.device + " ") {
                let point = String(line.split(separator: " ")[1])
                for host in names(point) where host != "lost+found" {
                    partSeen = names(point + "/" + host).contains { $0.hasSuffix(".csv.part") }
                }
            }
            if !p.isRunning { break }
            usleep(1000)
        }
        kill(p.processIdentifier, SIGKILL)
        p.waitUntilExit()
        #expect(partSeen, "the copy finished before it could be interrupted")
        stick.detach()   // unmounts what the killed process left mounted, as pulling the stick would
        let again = try LoopStick.reattach(stick)
        defer { again.close() }
        try again.inspect { point in
            let host = try #require(names(point).first { $0 != "lost+found" })
            for name in names(point + "/" + host) where !name.hasSuffix(".part") && name != "manifest.csv" {
                #expect(FileManager.default.contents(atPath: point + "/" + host + "/" + name) == FileManager.default.contents(atPath: source + "/" + name),
                        "\(name) looks complete but is not")
            }
        }
        let resumed = try run([again.device, "--out", source])
        #expect(resumed.status == 0 && resumed.stdout.contains("Copied 1 recording"), "\(resumed.stdout)\(resumed.stderr)")
        try again.inspect { point in
            let host = try #require(names(point).first { $0 != "lost+found" })
            #expect(!names(point + "/" + host).contains { $0.hasSuffix(".part") })
            for name in names(source) where name.hasSuffix(".csv") {
                #expect(FileManager.default.contents(atPath: point + "/" + host + "/" + name) == FileManager.default.contents(atPath: source + "/" + name))
            }
        }
    }

    @Test(.enabled(if: canLoop, "needs root and loop devices; skipped"))
    func aFATStickIsUsedWhereTheKernelHasFAT() throws {
        guard Self.kernelHas("vfat"), Self.tool("mkfs.vfat") != nil else {
            print("skipped: this kernel has no vfat driver (/proc/filesystems) or mkfs.vfat is missing; FAT32's 4 GiB limit is tested on the folder offload")
            return
        }
        let source = try recordings(seconds: 2, count: 2)
        let stick = try LoopStick(megabytes: 64, fileSystem: "vfat", label: "MOTIONLOG")
        defer { stick.close() }
        let r = try run([stick.device, "--out", source, "--only-offload-sticks"])
        #expect(r.status == 0 && r.stdout.contains("Copied 1 recording (4 files, "), "\(r.stdout)\(r.stderr)")
    }
}

extension OffloadCLITests.LoopStick {
    /// The same image on a loop device again (a stick plugged in again).
    static func reattach(_ old: OffloadCLITests.LoopStick) throws -> OffloadCLITests.LoopStick {
        let attach = try Binary.run(via: try #require(OffloadCLITests.tool("losetup")), ["--show", "-f", old.image])
        return OffloadCLITests.LoopStick(image: old.image, device: attach.stdout.trimmingCharacters(in: .whitespacesAndNewlines))
    }
    init(image: String, device: String) { self.image = image; self.device = device }
}
