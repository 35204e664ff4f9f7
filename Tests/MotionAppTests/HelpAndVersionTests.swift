import Foundation
@testable import MotionApp
import Testing

/// Help texts, --version and shell completions (issue 10, minors).
@Suite("Help, version and completions")
struct HelpAndVersionTests {
    static let commands = ["record", "check", "export", "boards", "probe", "daemon", "start", "stop", "status", "label",
                           "fuse", "calibrate"]

    /// The options of a help text, each with its (wrapped) description joined.
    func options(_ help: String) -> [String] {
        var out: [String] = []
        for line in help.split(separator: "\n") {
            let t = line.trimmingCharacters(in: .whitespaces)
            if t.hasPrefix("-") { out.append(t) } else if line.hasPrefix("        "), !out.isEmpty { out[out.count - 1] += " " + t }
        }
        return out
    }

    @Test func noOptionStatesItsDefaultTwice() throws {
        for command in Self.commands {
            let help = try Binary.run([command, "--help"])
            #expect(help.status == 0)
            for option in options(help.stdout) {
                let count = option.components(separatedBy: "default").count - 1
                #expect(count <= 1, "motionlog \(command): \(option)")
            }
        }
    }

    @Test func versionNamesTheCommit() throws {
        let r = try Binary.run(["--version"])
        #expect(r.status == 0)
        #expect(r.stdout.hasPrefix(MotionLogCommand.version + " (commit "), "\(r.stdout)")
        #expect(r.stdout.contains("(commit \(BuildInfo.commit))"))
    }

    /// Only `make` writes the commit down (BuildInfo.swift): the README may not promise it
    /// for every build (a plain `swift build -c release` said "commit unknown").
    @Test func theReadmeSaysWhichBuildsNameTheCommit() throws {
        let readme = try String(contentsOfFile: DaemonTestSupport.repo + "/README.md", encoding: .utf8)
        let item = try #require(readme.components(separatedBy: "\n* ").first { $0.contains("motionlog --version") })
        let sentence = item.replacingOccurrences(of: "\n  ", with: " ")
        #expect(sentence.contains("when built with `make`") && sentence.contains("`swift build` says `commit unknown`"), "\(sentence)")
    }

    @Test func completionsAreDocumentedAndGenerated() throws {
        let help = try Binary.run(["--help"])
        #expect(help.stdout.contains("--generate-completion-script"))
        let bash = try Binary.run(["--generate-completion-script", "bash"])
        #expect(bash.status == 0 && bash.stdout.contains("_motionlog") && bash.stdout.contains("calibrate"))
        let makefile = try String(contentsOfFile: DaemonTestSupport.repo + "/Makefile", encoding: .utf8)
        #expect(makefile.contains("--generate-completion-script bash > $(DESTDIR)$(BASHCOMPDIR)/motionlog"))
    }

    /// `sudo make install` installs what `make build` built as the user: it neither builds
    /// nor runs apt-get.
    @Test func installDoesNotBuildOrInstallPackages() throws {
        let makefile = try String(contentsOfFile: DaemonTestSupport.repo + "/Makefile", encoding: .utf8)
        let lines = makefile.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let start = try #require(lines.firstIndex { $0.hasPrefix("install:") })
        #expect(lines[start] == "install:")
        let recipe = lines[(start + 1)...].prefix { $0.hasPrefix("\t") || $0.isEmpty }
        #expect(!recipe.contains { $0.contains("swift build") || $0.contains("$(SWIFT)") || $0.contains("apt-get") })
        #expect(recipe.contains { $0.contains("run \\`make build\\` first") })
    }
}
