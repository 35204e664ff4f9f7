import Foundation

/// Finds board files: `--boards-dir`, the config's `boards_dir`, `$MOTIONLOG_BOARDS`,
/// the installed `<prefix>/share/motionlog/boards`, or the source tree's `boards/`.
public struct BoardCatalog: Sendable {
    public let directory: String

    public init(directory: String) { self.directory = directory }

    /// The first existing folder among the candidates.
    public static func locate(explicit: String?, executablePath: String) -> BoardCatalog? {
        var candidates: [String] = []
        if let e = explicit { return BoardCatalog(directory: e) }
        if let env = ProcessInfo.processInfo.environment["MOTIONLOG_BOARDS"] { candidates.append(env) }
        let exeDir = (executablePath as NSString).deletingLastPathComponent
        candidates.append(exeDir + "/../share/motionlog/boards")        // make install
        candidates.append(exeDir + "/../../boards")                     // .build/release/motionlog
        candidates.append(exeDir + "/../../../boards")                  // .build/<triple>/release/motionlog
        candidates.append(FileManager.default.currentDirectoryPath + "/boards")
        for c in candidates {
            var isDir: ObjCBool = false
            if FileManager.default.fileExists(atPath: c, isDirectory: &isDir), isDir.boolValue {
                return BoardCatalog(directory: (c as NSString).standardizingPath)
            }
        }
        return nil
    }

    /// Board file paths, sorted.
    public func files() -> [String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
        return names.filter { $0.hasSuffix(".yaml") }.sorted().map { directory + "/" + $0 }
    }

    /// Loads a board by name (`simulator`) or by path (`./myboard.yaml`).
    public func load(_ nameOrPath: String) throws(ConfigError) -> BoardDefinition {
        let path = nameOrPath.contains("/") || nameOrPath.hasSuffix(".yaml") ? nameOrPath : directory + "/" + nameOrPath + ".yaml"
        return try Self.load(path: path, available: files())
    }

    public static func load(path: String, available: [String] = []) throws(ConfigError) -> BoardDefinition {
        guard let data = FileManager.default.contents(atPath: path) else {
            let names = available.map { (($0 as NSString).lastPathComponent as NSString).deletingPathExtension }
            let hint = names.isEmpty ? "" : " (available: \(names.joined(separator: ", ")))"
            throw ConfigError(file: path, line: nil, key: nil, message: "no such board file\(hint)")
        }
        guard let text = String(data: data, encoding: .utf8) else {
            throw ConfigError(file: path, line: nil, key: nil, message: "not UTF-8 text")
        }
        return try BoardDefinition.parse(text: text, file: path)
    }

    /// All boards that load, and the errors of those that don't.
    public func all() -> (boards: [BoardDefinition], errors: [ConfigError]) {
        var boards: [BoardDefinition] = [], errors: [ConfigError] = []
        for f in files() {
            do { boards.append(try Self.load(path: f)) } catch { errors.append(error) }
        }
        return (boards, errors)
    }

    /// The board whose `model_match` occurs in the device tree model string.
    public func match(deviceTreeModel model: String) -> BoardDefinition? {
        // Longest match wins ("Raspberry Pi 4 Model B" over "Raspberry Pi").
        all().boards.flatMap { b in b.modelMatch.filter { model.contains($0) }.map { (b, $0.count) } }
            .max { $0.1 < $1.1 }?.0
    }
}

/// Loads the config file; a missing default file is fine, a missing explicit one is not.
public enum ConfigLoader {
    public static func load(explicit: String?) throws(ConfigError) -> RecorderSettings {
        let path = explicit ?? RecorderSettings.defaultPath
        guard let data = FileManager.default.contents(atPath: path) else {
            if explicit != nil { throw ConfigError(file: path, line: nil, key: nil, message: "config file not found") }
            return RecorderSettings()
        }
        guard let text = String(data: data, encoding: .utf8) else {
            throw ConfigError(file: path, line: nil, key: nil, message: "not UTF-8 text")
        }
        return try RecorderSettings.parse(text: text, file: path)
    }
}
