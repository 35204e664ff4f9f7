import Foundation
import MotionCore
import MotionSystem
import SystemPackage

/// Why the config file was not written: what, where, what to do.
public struct ConfigWriteError: Error, Sendable, CustomStringConvertible {
    public var description: String
}

/// Edits of the config file by commands (`calibrate`, `web-password`): one top-level
/// section replaced, every other line and comment kept, written atomically.
public enum ConfigFileEdit {
    /// `text` with its top-level `name:` block replaced by `section` (or `section` appended
    /// when there is none).
    public static func replacing(section name: String, in text: String, with section: String) -> String {
        var lines = Self.lines(text)
        guard let block = block(name, in: lines) else {
            var out = lines.joined(separator: "\n")
            if !out.isEmpty { out += "\n\n" }
            return out + section
        }
        let sectionLines = section.components(separatedBy: "\n").dropLast()
        lines.replaceSubrange(block, with: sectionLines)
        return lines.joined(separator: "\n") + "\n"
    }

    private static func lines(_ text: String) -> [String] {
        var lines = text.components(separatedBy: "\n")
        if lines.last == "" { lines.removeLast() }
        return lines
    }

    /// The lines of the top-level `name:` block, its key's line first: the indented and
    /// blank lines up to the next top-level line; blank lines at its end stay outside it.
    private static func block(_ name: String, in lines: [String]) -> Range<Int>? {
        guard let start = lines.firstIndex(where: { isKey(name, $0) }) else { return nil }
        var end = start + 1
        while end < lines.count, lines[end].isEmpty || lines[end].first == " " || lines[end].first == "\t" { end += 1 }
        while end > start + 1, lines[end - 1].trimmingCharacters(in: .whitespaces).isEmpty { end -= 1 }
        return start..<end
    }

    /// `text` with `key: value` set inside its top-level `name:` block: the key's line
    /// replaced where it is, else added at the end of the block, at the block's indentation;
    /// every other key and comment of the block kept. Nil when there is no such block.
    public static func setting(_ key: String, to value: String, inSection name: String, of text: String) -> String? {
        var lines = Self.lines(text)
        guard let block = block(name, in: lines) else { return nil }
        func indentation(_ line: String) -> Substring { line.prefix { $0 == " " || $0 == "\t" } }
        let keys = block.dropFirst().filter {
            let body = lines[$0].trimmingCharacters(in: .whitespaces)
            return !body.isEmpty && !body.hasPrefix("#")
        }
        let indent = keys.first.map { String(indentation(lines[$0])) } ?? "  "
        let line = indent + key + ": " + value
        if let k = keys.first(where: { indentation(lines[$0]) == indent && lines[$0].dropFirst(indent.count).hasPrefix(key + ":") }) {
            lines[k] = line
        } else {
            lines.insert(line, at: block.upperBound)
        }
        return lines.joined(separator: "\n") + "\n"
    }

    public static func isKey(_ name: String, _ line: String) -> Bool {
        guard line.hasPrefix(name + ":") else { return false }
        let rest = line.dropFirst(name.count + 1).trimmingCharacters(in: .whitespaces)
        return rest.isEmpty || rest.hasPrefix("#")
    }

    /// Writes `text` to `path` atomically (a temporary file created exclusively in the same
    /// folder, fsync, rename, fsync of the folder: `SafeOutputFile`), after checking that it
    /// parses as a config file. Replacing the config is the point, so an existing file is
    /// replaced; it keeps its permissions and group (the daemon's user reads it through the
    /// group). A file holding a password hash is never readable by others: rw-r----- when
    /// new, the existing bits without "other" when replaced.
    public static func write(_ text: String, to link: String, inputs: [String] = []) throws(ConfigWriteError) {
        // A config kept as a symbolic link (to a boot partition, a dotfiles folder) is
        // written where it points: the rename replaced the link with a plain file, and the
        // file it pointed to kept the old settings.
        let path = linkTarget(link)
        let settings: RecorderSettings
        do { settings = try RecorderSettings.parse(text: text, file: path) } catch {
            throw ConfigWriteError(description: "internal error: the new config would not parse (\(error)); nothing written")
        }
        let dir = (path as NSString).deletingLastPathComponent
        if !dir.isEmpty && !FileManager.default.fileExists(atPath: dir) {
            do { try FileSystem.makeDirectories(dir) } catch {
                throw ConfigWriteError(description: "cannot create the folder \(error.path): \(error.errno) — run with sudo or choose --config FILE")
            }
        }
        let existing = try? FileSystem.status(path)
        let secret = settings.web?.passwordHash != nil
        var bits: UInt32 = existing.map { $0.permissions } ?? (secret ? 0o640 : 0o644)
        if secret { bits &= ~0o007 }
        do {
            let file = try SafeOutputFile(path: path, inputs: inputs, overwrite: true, mode: FilePermissions(rawValue: CInterop.Mode(bits)))
            try file.write(Array(text.utf8))
            try file.commit()
        } catch {
            throw ConfigWriteError(description: "\(error) (or run with sudo, or choose another file with --config FILE)")
        }
        // The umask may have narrowed the bits; the group stays the file's old group.
        try? FileSystem.setPermissions(path, bits)
        if let existing, existing.group != CurrentProcess.effectiveGroupID { try? FileSystem.setGroup(path, existing.group) }
    }

    /// The file a chain of symbolic links at `path` ends at (relative targets read from the
    /// link's folder); `path` itself when it is no link. At most 40 links are followed.
    static func linkTarget(_ path: String) -> String {
        var current = path
        for _ in 0..<40 {
            guard let target = try? FileManager.default.destinationOfSymbolicLink(atPath: current) else { return current }
            current = target.hasPrefix("/") ? target
                : ((current as NSString).deletingLastPathComponent as NSString).appendingPathComponent(target)
        }
        return current
    }
}
