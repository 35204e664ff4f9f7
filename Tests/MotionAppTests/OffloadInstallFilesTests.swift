import Foundation
import Testing

/// The udev rule and systemd units of the USB and rclone offload.
@Suite("offload udev rule and units")
struct OffloadInstallFilesTests {
    typealias S = DaemonTestSupport

    @Test func theUdevRuleStartsTheServiceForUSBPartitionsWithAFileSystemOnly() throws {
        let text = try String(contentsOfFile: S.repo + "/udev/62-motionlog-offload.rules", encoding: .utf8)
        let rules = text.split(separator: "\n").filter { !$0.hasPrefix("#") && !$0.trimmingCharacters(in: .whitespaces).isEmpty }
        #expect(rules.contains("ACTION!=\"add\", GOTO=\"motionlog_offload_end\""))
        #expect(rules.contains("SUBSYSTEM!=\"block\", GOTO=\"motionlog_offload_end\""))
        #expect(rules.contains("ENV{DEVTYPE}!=\"partition\", GOTO=\"motionlog_offload_end\""))
        #expect(rules.contains("ENV{ID_BUS}!=\"usb\", GOTO=\"motionlog_offload_end\""))
        let start = try #require(rules.first { $0.contains("SYSTEMD_WANTS") })
        #expect(start.contains("ENV{ID_FS_TYPE}==\"vfat|exfat|ext4\"") && start.contains("motionlog-offload@%k.service"))
        #expect(rules.last == "LABEL=\"motionlog_offload_end\"")
        // It starts a service; it never runs a program itself, nor changes the device's access.
        #expect(!text.contains("RUN") && !text.contains("MODE") && !text.contains("OWNER"))
    }

    static var analyze: String? {
        ["/usr/bin/systemd-analyze", "/bin/systemd-analyze"].first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    /// A unit as `make install` writes it, with ExecStart pointing at the built binary.
    func installable(_ name: String, as instance: String? = nil, in dir: String) throws -> String {
        let text = try String(contentsOfFile: S.repo + "/systemd/" + name, encoding: .utf8)
            .replacingOccurrences(of: "/usr/local/bin/motionlog", with: Binary.path)
        let path = dir + "/" + (instance ?? name)
        try text.write(toFile: path, atomically: false, encoding: .utf8)
        return path
    }

    @Test(.enabled(if: analyze != nil, "systemd-analyze is not installed"))
    func systemdAcceptsTheUnitsAndRatesThemOK() throws {
        let analyze = try #require(Self.analyze)
        let dir = Binary.temporaryDirectory()
        let offload = try installable("motionlog-offload@.service", as: "motionlog-offload@sda1.service", in: dir)
        let upload = try installable("motionlog-upload.service", in: dir)
        let timer = try installable("motionlog-upload.timer", in: dir)
        for unit in [offload, upload, timer] {
            let verify = try Binary.run(via: analyze, ["verify", unit])
            #expect(verify.status == 0 && verify.stderr.isEmpty, "\(unit): \(verify.stderr)")
        }
        for unit in [offload, upload] {
            let security = try Binary.run(via: analyze, ["security", "--offline=true", unit])
            let line = try #require(security.stdout.split(separator: "\n").first { $0.contains("Overall exposure level") })
            let score = try #require(line.split(separator: " ").compactMap { Double($0) }.last)
            #expect(score <= 2.0 && (line.contains(" OK") || line.contains(" SAFE")), "\(line)")
        }
    }
}
