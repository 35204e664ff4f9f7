import Foundation
import MotionConfig
import Testing

/// The udev rules and the systemd unit that `make install` ships.
@Suite("udev rules and systemd unit")
struct DaemonInstallFilesTests {
    typealias S = DaemonTestSupport

    func rules() throws -> [(file: String, line: Int, text: String)] {
        let dir = S.repo + "/udev"
        var out: [(String, Int, String)] = []
        for name in try FileManager.default.contentsOfDirectory(atPath: dir).sorted() where name.hasSuffix(".rules") {
            let lines = try String(contentsOfFile: dir + "/" + name, encoding: .utf8).split(separator: "\n", omittingEmptySubsequences: false)
            for (i, l) in lines.enumerated() where !l.trimmingCharacters(in: .whitespaces).hasPrefix("#") {
                out.append((name, i + 1, String(l)))
            }
        }
        return out
    }

    @Test func noUdevRuleGrantsWorldAccess() throws {
        let all = try rules()
        #expect(!all.isEmpty)
        var modes = 0
        for r in all {
            // Every MODE= / MODE:= assignment, e.g. MODE="0660".
            var rest = Substring(r.text)
            while let range = rest.range(of: "MODE") {
                rest = rest[range.upperBound...]
                guard let open = rest.firstIndex(of: "\""), let close = rest[rest.index(after: open)...].firstIndex(of: "\"") else { break }
                let value = String(rest[rest.index(after: open)..<close])
                let mode = try #require(Int(value, radix: 8), "\(r.file):\(r.line): MODE \"\(value)\" is not octal")
                #expect(mode & 0o007 == 0, "\(r.file):\(r.line): MODE \(value) gives others access")
                modes += 1
                rest = rest[close...]
            }
            #expect(!r.text.contains("0666") && !r.text.contains("0777"), "\(r.file):\(r.line)")
        }
        #expect(modes >= 2)
    }

    @Test func udevGivesTheDeviceGroupsAccessAndNamesTheGPS() throws {
        let text = try rules().map(\.text).joined(separator: "\n")
        #expect(text.contains("SUBSYSTEM==\"i2c-dev\", KERNEL==\"i2c-[0-9]*\", GROUP=\"i2c\", MODE=\"0660\""))
        #expect(text.contains("SUBSYSTEM==\"gpio\", KERNEL==\"gpiochip[0-9]*\", GROUP=\"gpio\", MODE=\"0660\""))
        #expect(text.contains("ATTRS{idVendor}==\"1546\", ATTRS{idProduct}==\"01a8\", ENV{MOTIONLOG_GPS}=\"1\""))
    }

    /// Only known receivers get a name, one per device: no product-string match (every USB
    /// serial device saying "GPS" used to get /dev/gps0), no shared /dev/gps0.
    @Test func theGPSRuleNamesKnownReceiversOneSymlinkEach() throws {
        let gps = try rules().filter { $0.file == "61-motionlog-gps.rules" }.map(\.text)
        #expect(!gps.contains { $0.contains("ATTRS{product}") })
        let symlinks = gps.filter { $0.contains("SYMLINK") }
        #expect(symlinks == ["ENV{ID_SERIAL}==\"?*\", SYMLINK+=\"gps-$env{ID_SERIAL}\""])
        // Every rule that marks a device names its vendor and product.
        for line in gps where line.contains("ENV{MOTIONLOG_GPS}=\"1\"") {
            #expect(line.contains("ATTRS{idVendor}==") && line.contains("ATTRS{idProduct}=="), "\(line)")
        }
    }

    func unit() throws -> [String: [String]] {
        var keys: [String: [String]] = [:]
        for line in try String(contentsOfFile: S.repo + "/systemd/motionlog.service", encoding: .utf8).split(separator: "\n") {
            guard !line.hasPrefix("#"), !line.hasPrefix("["), let eq = line.firstIndex(of: "=") else { continue }
            keys[String(line[..<eq]), default: []].append(String(line[line.index(after: eq)...]))
        }
        return keys
    }

    @Test func theUnitRunsTheDaemonUnprivilegedAndHardened() throws {
        let u = try unit()
        #expect(u["ExecStart"]?.first?.hasSuffix("motionlog daemon") == true)
        #expect(u["User"] == ["motionlog"] && u["SupplementaryGroups"] == ["i2c gpio"])
        #expect(u["NoNewPrivileges"] == ["yes"] && u["ProtectSystem"] == ["strict"])
        #expect(u["ReadWritePaths"] == ["/var/lib/motionlog"] && u["StateDirectory"] == ["motionlog"])
        #expect(u["RuntimeDirectory"] == ["motionlog"])
        #expect(u["Restart"] == ["on-failure"] && u["After"]?.first?.contains("gpsd.service") == true)
        #expect(u["CapabilityBoundingSet"] == [""])
        #expect(u["DeviceAllow"]?.sorted() == ["char-gpiochip rw", "char-i2c rw"])
        // /proc/sys/kernel/random/boot_id (provisional file names) and /proc/meminfo (the web
        // page's memory check) stay readable: ProcSubset=pid hid both.
        #expect(u["ProcSubset"] == nil || u["ProcSubset"] == ["all"], "\(String(describing: u["ProcSubset"]))")
        // Out of memory, the kernel ends anything but the recorder.
        #expect(u["OOMScoreAdjust"].flatMap { $0.first.flatMap { Int($0) } }.map { $0 <= -500 } == true, "\(String(describing: u["OOMScoreAdjust"]))")
        // Every board's output folder is writable by the service.
        let outputs = BoardCatalog(directory: S.repo + "/boards").all().boards.filter { $0.name != "simulator" }.compactMap(\.output)
        #expect(outputs.count >= 7)
        for output in outputs {
            #expect(output.hasPrefix("/var/lib/motionlog/"), "\(output)")
        }
    }

    static var analyze: String? {
        ["/usr/bin/systemd-analyze", "/bin/systemd-analyze"].first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    /// The unit with ExecStart pointing at the built binary (verify checks that it exists).
    func installableUnit() throws -> String {
        let dir = Binary.temporaryDirectory()
        let text = try String(contentsOfFile: S.repo + "/systemd/motionlog.service", encoding: .utf8)
            .replacingOccurrences(of: "/usr/local/bin/motionlog", with: Binary.path)
        try text.write(toFile: dir + "/motionlog.service", atomically: false, encoding: .utf8)
        return dir + "/motionlog.service"
    }

    @Test(.enabled(if: analyze != nil)) func systemdAcceptsTheUnitAndRatesItOK() throws {
        let unit = try installableUnit()
        let analyze = try #require(Self.analyze)
        let verify = try Binary.run(via: analyze, ["verify", unit])
        #expect(verify.status == 0 && verify.stderr.isEmpty, "\(verify.stderr)")
        let security = try Binary.run(via: analyze, ["security", "--offline=true", unit])
        // "→ Overall exposure level for motionlog.service: 1.7 OK 🙂"
        let line = try #require(security.stdout.split(separator: "\n").first { $0.contains("Overall exposure level") })
        let words = line.split(separator: " ")
        let score = try #require(words.compactMap { Double($0) }.last)
        #expect(score <= 2.0, "\(line)")
        #expect(line.contains(" OK") || line.contains(" SAFE"), "\(line)")
    }
}

