import Foundation
import MotionSystem
import SystemPackage

/// Finds and loads board files. The boards folder is the first that exists of:
/// `--boards-dir` (or the config's `boards_dir`), `$MOTIONLOG_BOARDS`, `boards/` beside
/// the executable, the install prefix (`<bin>/../share/motionlog/boards`,
/// `/usr/local/share/motionlog/boards`, `/usr/share/motionlog/boards`), then the source
/// checkout the binary was built in (`.build/release/motionlog` → `boards/`). A folder
/// named explicitly must exist. Boards built into the binary (`simulator`) are available
/// with or without a folder.
public struct BoardCatalog: Sendable {
    /// The boards folder; nil when none was found (only the built-in boards).
    public let directory: String?

    public init(directory: String?) { self.directory = directory }

    /// The folders searched when none is named, in order.
    public static func searchPath(executablePath: String, environment: [String: String]) -> [String] {
        let exeDir = (executablePath as NSString).deletingLastPathComponent
        var candidates: [String] = []
        if let env = environment["MOTIONLOG_BOARDS"], !env.isEmpty { candidates.append(env) }
        candidates.append(exeDir + "/boards")                            // unpacked beside the binary
        candidates.append(exeDir + "/../share/motionlog/boards")        // make install (any PREFIX)
        candidates.append("/usr/local/share/motionlog/boards")
        candidates.append("/usr/share/motionlog/boards")
        for up in ["/../..", "/../../.."] {                              // .build/[<triple>/]release/motionlog
            candidates.append(exeDir + up + "/boards")
        }
        return candidates.map { ($0 as NSString).standardizingPath }
    }

    /// The boards folder: `explicit` (which must exist), `$MOTIONLOG_BOARDS` (which must
    /// exist when set), else the first existing folder of `searchPath`, else none.
    public static func locate(explicit: String?, executablePath: String,
                              environment: [String: String] = ProcessInfo.processInfo.environment) throws(ConfigError) -> BoardCatalog {
        if let explicit {
            guard isDirectory(explicit) else {
                throw ConfigError(file: explicit, line: nil, key: nil, message: "no such boards folder")
            }
            return BoardCatalog(directory: explicit)
        }
        if let env = environment["MOTIONLOG_BOARDS"], !env.isEmpty, !isDirectory(env) {
            throw ConfigError(file: env, line: nil, key: nil, message: "no such boards folder (named by MOTIONLOG_BOARDS)")
        }
        let path = searchPath(executablePath: executablePath, environment: environment)
        for (i, c) in path.enumerated() where isDirectory(c) {
            // A checkout's boards/ (the last two candidates) only counts beside its Package.swift.
            if i >= path.count - 2, !FileManager.default.fileExists(atPath: c + "/../Package.swift") { continue }
            return BoardCatalog(directory: c)
        }
        return BoardCatalog(directory: nil)
    }

    static func isDirectory(_ path: String) -> Bool {
        var isDir: ObjCBool = false
        return FileManager.default.fileExists(atPath: path, isDirectory: &isDir) && isDir.boolValue
    }

    /// Board file paths in the folder, sorted.
    public func files() -> [String] {
        guard let directory else { return [] }
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
        return names.filter { $0.hasSuffix(".yaml") }.sorted().map { directory + "/" + $0 }
    }

    /// Built-in boards that no file in the folder replaces.
    func builtInNames() -> [String] {
        let inFolder = Set(files().map { (($0 as NSString).lastPathComponent as NSString).deletingPathExtension })
        return BuiltInBoards.texts.keys.filter { !inFolder.contains($0) }.sorted()
    }

    /// Loads a board by name (`simulator`) or by path (`./myboard.yaml`).
    public func load(_ nameOrPath: String) throws(ConfigError) -> BoardDefinition {
        if nameOrPath.contains("/") || nameOrPath.hasSuffix(".yaml") { return try Self.load(path: nameOrPath) }
        if let directory, FileManager.default.fileExists(atPath: directory + "/" + nameOrPath + ".yaml") {
            return try Self.load(path: directory + "/" + nameOrPath + ".yaml")
        }
        if let text = BuiltInBoards.texts[nameOrPath] {
            return try BoardDefinition.parse(text: text, file: BuiltInBoards.file(nameOrPath))
        }
        let names = (files().map { (($0 as NSString).lastPathComponent as NSString).deletingPathExtension } + builtInNames()).sorted()
        let place = directory.map { "not in the boards folder \($0)" } ?? "no boards folder found (see `motionlog boards --help`)"
        throw ConfigError(file: nameOrPath, line: nil, key: nil,
                          message: "no such board: \(place); available: \(names.joined(separator: ", "))")
    }

    public static func load(path: String) throws(ConfigError) -> BoardDefinition {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw ConfigError(file: path, line: nil, key: nil, message: "no such board file")
        }
        guard let text = String(data: data, encoding: .utf8) else {
            throw ConfigError(file: path, line: nil, key: nil, message: "not UTF-8 text")
        }
        return try BoardDefinition.parse(text: text, file: path)
    }

    /// All boards that load (the folder's, then built-in ones it does not replace), and
    /// the errors of those that don't.
    public func all() -> (boards: [BoardDefinition], errors: [ConfigError]) {
        var boards: [BoardDefinition] = [], errors: [ConfigError] = []
        for f in files() {
            do { boards.append(try Self.load(path: f)) } catch { errors.append(error) }
        }
        for name in builtInNames() {
            do { boards.append(try BoardDefinition.parse(text: BuiltInBoards.texts[name] ?? "", file: BuiltInBoards.file(name))) } catch {
                errors.append(error)
            }
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
        var isFolder: ObjCBool = false
        if FileManager.default.fileExists(atPath: path, isDirectory: &isFolder), isFolder.boolValue {
            throw ConfigError(file: path, line: nil, key: nil, message: "is a folder, not a config file: pass the YAML file itself (e.g. \(RecorderSettings.defaultPath))")
        }
        if let error = FileSystem.unreachable(path) {
            // A folder on the way this user may not enter hides the file: not "not found".
            if explicit != nil || error == .permissionDenied {
                let why = error == .permissionDenied
                    ? "the config file cannot be reached by this user (a folder on its path may not be entered: permission denied): give the folders execute permission (chmod a+x), or run motionlog as a user who may"
                    : "config file not found"
                throw ConfigError(file: path, line: nil, key: nil, message: why)
            }
            return RecorderSettings()
        }
        // There but not readable is no missing file: "config file not found" sent a user
        // looking for a file that was there, and the default file was silently ignored.
        do throws(Errno) {
            let fd = try FileSystem.openForReading(path)
            try? fd.close()
        } catch {
            throw ConfigError(file: path, line: nil, key: nil, message: Self.cannotRead(error))
        }
        guard let data = FileManager.default.contents(atPath: path) else {
            throw ConfigError(file: path, line: nil, key: nil, message: "the config file could not be read")
        }
        guard let text = String(data: data, encoding: .utf8) else {
            throw ConfigError(file: path, line: nil, key: nil, message: "not UTF-8 text")
        }
        return try RecorderSettings.parse(text: text, file: path)
    }

    /// Why a config file that exists cannot be opened, and what to do.
    static func cannotRead(_ error: Errno) -> String {
        switch error {
        case .permissionDenied, .notPermitted:
            return "the config file cannot be read by this user (permission denied): give it read permission (chmod a+r), or run motionlog as a user who may read it"
        case .illegalSeek:
            return "not a regular file (a pipe or a device): pass the YAML file itself"
        default:
            return "the config file cannot be read (\(error))"
        }
    }
}
