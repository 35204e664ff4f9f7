import Foundation
import MotionConfig
#if canImport(Glibc)
import Glibc
#endif

/// Edits of the config file by commands (`calibrate`, `web-password`): one top-level
/// section replaced, every other line and comment kept, written atomically.
enum ConfigFileEdit {
    /// `text` with its top-level `name:` block replaced by `section` (or `section` appended
    /// when there is none).
    static func replacing(section name: String, in text: String, with section: String) -> String {
        var lines = text.components(separatedBy: "\n")
        if lines.last == "" { lines.removeLast() }
        guard let start = lines.firstIndex(where: { isKey(name, $0) }) else {
            var out = lines.joined(separator: "\n")
            if !out.isEmpty { out += "\n\n" }
            return out + section
        }
        var end = start + 1
        // The block: indented lines and blank lines up to the next top-level line.
        while end < lines.count, lines[end].isEmpty || lines[end].first == " " || lines[end].first == "\t" { end += 1 }
        // Blank lines at the end of the block stay outside it.
        while end > start + 1, lines[end - 1].trimmingCharacters(in: .whitespaces).isEmpty { end -= 1 }
        let sectionLines = section.components(separatedBy: "\n").dropLast()
        lines.replaceSubrange(start..<end, with: sectionLines)
        return lines.joined(separator: "\n") + "\n"
    }

    static func isKey(_ name: String, _ line: String) -> Bool {
        guard line.hasPrefix(name + ":") else { return false }
        let rest = line.dropFirst(name.count + 1).trimmingCharacters(in: .whitespaces)
        return rest.isEmpty || rest.hasPrefix("#")
    }

    /// Writes `text` to `path` atomically (temporary file in the same folder, then rename),
    /// after checking that it parses as a config file.
    static func write(_ text: String, to path: String) throws(CommandFailure) {
        do { _ = try RecorderSettings.parse(text: text, file: path) } catch {
            throw CommandFailure("internal error: the new config would not parse (\(error)); nothing written", code: 2)
        }
        let dir = (path as NSString).deletingLastPathComponent
        if !dir.isEmpty && !FileManager.default.fileExists(atPath: dir) {
            do { try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true) } catch {
                throw CommandFailure("cannot create the folder \(dir): \(error.localizedDescription) — run with sudo or choose --config FILE", code: 2)
            }
        }
        let temp = path + ".motionlog-tmp"
        guard FileManager.default.createFile(atPath: temp, contents: Data(text.utf8)) else {
            throw CommandFailure("cannot write \(path): permission denied or no space — run with sudo, or choose another file with --config FILE", code: 2)
        }
        if rename(temp, path) != 0 {
            try? FileManager.default.removeItem(atPath: temp)
            throw CommandFailure("cannot replace \(path): \(String(cString: strerror(errno))) — run with sudo or choose --config FILE", code: 2)
        }
    }
}
