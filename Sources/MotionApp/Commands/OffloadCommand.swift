import ArgumentParser
import Foundation
import MotionConfig
import MotionOffload
import MotionSystem

/// `motionlog offload`: finished recordings to a USB stick, a folder or an rclone remote.
struct OffloadCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "offload",
        abstract: "Copy finished recordings to a USB stick, a folder, or an rclone remote.",
        discussion: """
            DEVICE (e.g. /dev/sda1, as the udev rule runs it): mounts the stick privately, copies \
            into a folder named after this logger's hostname, unmounts. --to DIR: the same into a \
            mounted folder. Every file is written as NAME.part, flushed, read back and compared \
            by SHA-256, then renamed; manifest.csv lists what arrived. What is already there is \
            not copied again; a recording being written is never touched. \
            --remote: uploads with rclone (see docs/OFFLOAD.md), verified by `rclone check`. \
            Exit status: 0 everything finished is there, 1 something was not copied (it says \
            what), 2 usage error or the target could not be used.
            """)

    @Argument(help: "A USB stick's partition, e.g. /dev/sda1.")
    var device: String?

    @Option(name: .long, help: "Copy into this mounted folder instead of a device.")
    var to: String?

    @Flag(name: .long, help: "Upload to the config's offload.remote with rclone.")
    var remote = false

    @Option(name: .customLong("remote-path"), help: "Upload to this rclone remote and path (NAME:path) instead of the config's.")
    var remotePath: String?

    @Option(name: .long, help: "The recordings folder (default: out in the config, else /var/lib/motionlog/recordings or ./recordings, whichever exists).")
    var out: String?

    @Option(name: .long, help: "Config file (default /etc/motionlog/config.yaml).")
    var config: String?

    @Flag(name: .long, help: "Delete each recording from the card after its copy was verified (config: offload.delete_after_copy).")
    var deleteAfterCopy = false

    @Flag(name: .long, help: "Only act on sticks whose label matches offload.label (how the udev rule runs it).")
    var onlyOffloadSticks = false

    @Option(name: .long, help: "Write progress here as JSON for the daemon (default: offload.json beside the daemon's socket, when that folder exists).")
    var statusFile: String?

    func validate() throws {
        let targets = (device == nil ? 0 : 1) + (to == nil ? 0 : 1) + (remote || remotePath != nil ? 1 : 0)
        if targets != 1 { throw ValidationError("give one target: a DEVICE, --to DIR, or --remote") }
        if let r = remotePath, !OffloadSettings.isValidRemote(r) {
            throw ValidationError("--remote-path \"\(r)\": use an rclone remote and path such as nas:motionlog")
        }
    }

    func run() throws {
        // Ctrl-C or SIGTERM stops the copy cleanly: the unfinished file is removed, rclone
        // is ended, the stick unmounted, and the report says what was left.
        let stop = OffloadStop()
        SignalWatcher.onStop(leftBehind: "an unfinished NAME.part may be left on the target, which the next offload replaces; "
                                 + "a stick may still be mounted: `findmnt | grep motionlog-offload`, then `sudo umount` it") { sig in
            let name = SignalWatcher.name(sig)
            Console.showStatus(nil)
            Console.error("\(name): stopping the offload (a second signal exits at once)")
            stop.request(name)
        }
        try run(stop: stop)
    }

    func run(stop: OffloadStop) throws {
        let settings: RecorderSettings
        do { settings = try ConfigLoader.load(explicit: config) } catch { throw CommandFailure.usage("\(error)") }
        let offload = settings.offload ?? OffloadSettings()
        if let statusFile { try Self.checkStatusFile(statusFile) }
        let source = try recordingsFolder(settings)
        if remote || remotePath != nil { return try upload(source: source, settings: settings, stop: stop) }

        var options = FolderOffloadOptions()
        options.deleteAfterCopy = deleteAfterCopy || (offload.deleteAfterCopy ?? false)
        let host = LoggerName.current
        if let to {
            try Self.checkFolderTarget(to, source: source, deleting: options.deleteAfterCopy)
            if FolderOffload.isFAT(to) { options.maxFileBytes = FolderOffloadOptions.fatMaxFileBytes }
            try copy(source: source, target: to + "/" + host, options: options, label: to, shownTarget: to + "/" + host,
                     statusFile: statusFile, stop: stop)
            return
        }
        guard let device else { return }
        try offloadDevice(device, source: source, options: options, host: host, offload: offload,
                          status: statusFile ?? Self.defaultStatusFile(settings), runner: SystemProcessRunner(), stop: stop)
    }

    /// A `--status-file` that cannot be written is refused before anything is copied: in a
    /// folder that did not exist the offload ran with exit 0 and never wrote it.
    static func checkStatusFile(_ path: String) throws(CommandFailure) {
        let folder = (path as NSString).deletingLastPathComponent
        let dir = folder.isEmpty ? "." : folder
        guard (try? FileSystem.status(dir).kind) == .directory else {
            throw .usage("--status-file \(path): the folder \(dir) does not exist: create it, or choose another path")
        }
        if let error = FileSystem.cannotWriteFolder(dir) {
            throw .usage("--status-file \(path): cannot write in \(dir) (\(error)): choose a folder you may write in")
        }
        if (try? FileSystem.status(path).kind).map({ $0 != .regular }) == true {
            throw .usage("--status-file \(path): is a folder or a special file, not a file to write")
        }
    }

    /// Identifies, mounts, copies onto and unmounts the stick `device`. The run's final
    /// state (done, incomplete: the stick may be pulled out) reaches the status file, and so
    /// the LED, only once the stick is unmounted; until then it stays "copying".
    func offloadDevice(_ device: String, source: String, options: FolderOffloadOptions, host: String,
                       offload: OffloadSettings, status: String?, runner: any ProcessRunning,
                       mountParent: String = "/run", stop: OffloadStop? = nil) throws {
        var options = options
        let stick: BlockDevice
        do { stick = try BlockDevice.identify(device, runner: runner) } catch { throw CommandFailure.usage("\(error)") }
        if onlyOffloadSticks {
            let wanted = offload.stick ?? .label(OffloadSettings.defaultLabel)
            if case .label(let label) = wanted, stick.label != label {
                Console.out("\(device) is labelled \(stick.label.map { "\"\($0)\"" } ?? "without a label"), not \"\(label)\": not an offload stick, left alone (offload.label in the config).")
                return
            }
        }
        // The card's own partition is no stick (a mistyped /dev/mmcblk0p2, or `offload.label:
        // any` on a board that boots from USB): with --delete-after-copy the recordings left
        // the recordings folder for another folder on the same card, "the stick may be pulled out".
        // Another partition of the same disk is no second copy either (its boot partition).
        if let part = try? FileSystem.status(device), part.specialDevice != 0, let card = try? FileSystem.status(source) {
            let disk = BlockDisk.name(ofDevice: card.device)
            let message: String? = card.device == part.specialDevice
                ? "\(device) holds the recordings themselves (\(source) is on it)"
                : disk != nil && disk == BlockDisk.name(ofDevice: part.specialDevice)
                ? "\(device) is on the disk that holds the recordings (\(source) is on \(disk ?? ""))" : nil
            if let message {
                let text = message + ": a copy there would be no second copy; nothing was copied — give a stick's device, or check offload.label in the config"
                report(state: .error, target: device, message: text, statusFile: status)
                throw CommandFailure.usage(text)
            }
        }
        let mounted: MountedDevice
        do { mounted = try MountedDevice.mount(stick, parent: mountParent, runner: runner) } catch {
            report(state: .error, target: device, message: "\(error)", statusFile: status)
            throw CommandFailure.usage("\(error)")
        }
        if stick.fileSystem == .vfat { options.maxFileBytes = FolderOffloadOptions.fatMaxFileBytes }
        var failure: Error?
        var final: OffloadProgress?
        // The private mount point is gone when this returns: name the folder on the stick.
        do {
            try copy(source: source, target: mounted.mountPoint + "/" + host, options: options, label: device,
                     shownTarget: "the folder \(host) on \(device)", shownMount: (mounted.mountPoint, device + ":"),
                     statusFile: status, stop: stop, final: &final)
        } catch {
            failure = error
        }
        do { try mounted.unmount() } catch {
            report(state: .error, target: device, message: "\(error)", statusFile: status)
            throw CommandFailure("\(error)", code: 2)
        }
        if let final, let status {
            var p = final
            p.updated = Date().timeIntervalSince1970
            p.write(to: status)
        }
        // Said whatever the copy did: a stopped or failed copy also left the stick unmounted.
        Console.out("Unmounted \(device): the stick may be pulled out.")
        if let failure { throw failure }
    }

    /// `--to DIR` must be there already (a stick's mount point: a mistyped or unmounted path
    /// was created on the card and "copied" to), and with --delete-after-copy on another file
    /// system than the recordings (else deleting leaves no second copy anywhere).
    static func checkFolderTarget(_ to: String, source: String, deleting: Bool) throws {
        let status = try? FileSystem.status(to)
        guard let target = status, target.kind == .directory else {
            if status != nil { throw CommandFailure.usage("--to \(to) is a file, not a folder: give the folder to copy into (the stick's mount point)") }
            throw CommandFailure.usage("--to \(to): no such folder — mount the stick first, or create the folder if you mean it")
        }
        if deleting, let card = try? FileSystem.status(source), card.device == target.device {
            throw CommandFailure.usage("--to \(to) is on the same file system as the recordings (\(source)): with --delete-after-copy no second copy would be left; copy to another stick or disk, or leave out --delete-after-copy")
        }
    }

    /// Copies into `target`; `label` names it in the status file, `shownTarget` to the user.
    /// Paths under a private mount point are shown on the device instead (`shownMount`:
    /// `/run/motionlog-offload.X/…` → `/dev/sda1:/…`), since the mount is gone afterwards.
    /// With `final`, the last progress (the run's end) is kept there instead of written, for
    /// the caller to write once the target can be removed.
    private func copy(source: String, target: String, options: FolderOffloadOptions, label: String,
                      shownTarget: String, shownMount: (point: String, device: String)? = nil, statusFile: String?,
                      stop: OffloadStop?) throws {
        var unused: OffloadProgress?
        try copy(source: source, target: target, options: options, label: label, shownTarget: shownTarget,
                 shownMount: shownMount, statusFile: statusFile, stop: stop, final: &unused, holdFinal: false)
    }

    private func copy(source: String, target: String, options: FolderOffloadOptions, label: String,
                      shownTarget: String, shownMount: (point: String, device: String)? = nil, statusFile: String?,
                      stop: OffloadStop?, final: inout OffloadProgress?, holdFinal: Bool = true) throws {
        func show(_ text: String) -> String {
            shownMount.map { text.replacingOccurrences(of: $0.point + "/", with: $0.device + "/") } ?? text
        }
        var job = FolderOffload(source: source, target: target, options: options)
        job.now = { Date() }
        job.stop = stop
        let report: FolderOffloadReport
        do {
            report = try job.run { progress in
                var p = progress
                p.target = label
                p.message = p.message.map(show)
                // While copying, a message is news for the terminal too (waiting for another offload).
                if p.state == .copying, let message = p.message { Console.error(message) }
                if holdFinal && p.state != .copying { final = p; return }
                if let statusFile { p.write(to: statusFile) }
            }
        } catch {
            self.report(state: .error, target: label, message: show("\(error)"), statusFile: statusFile)
            throw CommandFailure(show("\(error)"), code: 2)
        }
        for line in report.lines() { Console.out(show(line)) }
        // The manifest is named only where it exists: a run stopped before its first file
        // was verified wrote none.
        let manifest = FileManager.default.fileExists(atPath: target + "/" + OffloadManifest.fileName)
        // (A manifest that could not be written is said among the report's lines, also where
        // the stick is gone: it was not said at all once the target folder had vanished.)
        Console.out("Target: \(shownTarget)" + (manifest && !report.manifestIncomplete ? " (manifest.csv lists every verified file)" : ""))
        if !report.complete { throw CommandFailure("", code: 1) }
    }

    private func upload(source: String, settings: RecorderSettings, stop: OffloadStop) throws {
        let offload = settings.offload ?? OffloadSettings()
        guard let remoteName = remotePath ?? offload.remote else {
            throw CommandFailure.usage("no remote: set offload.remote in the config (e.g. remote: \"nas:motionlog\") or give --remote-path NAME:path")
        }
        var options = RemoteUploadOptions(remote: remoteName)
        options.rcloneConfig = offload.rcloneConfig
        options.bandwidthLimit = offload.bandwidth
        options.attempts = offload.attempts ?? options.attempts
        options.deleteAfterUpload = deleteAfterCopy || (offload.deleteAfterCopy ?? false)
        options.minFreeSpace = settings.minFreeSpace ?? 100_000_000
        var job = RemoteUpload(source: source, options: options, runner: SystemProcessRunner(stop: stop))
        job.stop = stop
        let report: RemoteUploadReport
        do { report = try job.run(log: { Console.error($0) }) } catch { throw CommandFailure("\(error)", code: 2) }
        for line in report.lines() { Console.out(line) }
        if !report.complete { throw CommandFailure("", code: 1) }
    }

    /// Where the installed service records (systemd/motionlog.service).
    static let installedRecordings = "/var/lib/motionlog/recordings"

    private func recordingsFolder(_ settings: RecorderSettings) throws -> String {
        if let out = out ?? settings.out { return out }
        // Where the installed daemon records, or where `record` and `serve` default to; one
        // of them, never a guess between both.
        let found = [Self.installedRecordings, "./recordings"].filter { FileManager.default.fileExists(atPath: $0) }
        if found.count == 1 { return found[0] }
        if found.isEmpty {
            throw CommandFailure.usage("which recordings? neither \(Self.installedRecordings) nor ./recordings exists: give --out DIR (or set out in the config)")
        }
        throw CommandFailure.usage("which recordings? both \(found.joined(separator: " and ")) exist: give --out DIR")
    }

    private func report(state: OffloadProgress.State, target: String, message: String, statusFile: String?) {
        guard let statusFile else { return }
        OffloadProgress(state: state, target: target, message: message, pid: CurrentProcess.id,
                        updated: Date().timeIntervalSince1970).write(to: statusFile)
    }

    /// `offload.json` in the daemon's socket folder, when that folder exists.
    static func defaultStatusFile(_ settings: RecorderSettings) -> String? {
        let file = OffloadWatch.statusFile(socket: settings.daemon?.socket ?? ControlClient.defaultSocket)
        return FileManager.default.fileExists(atPath: (file as NSString).deletingLastPathComponent) ? file : nil
    }
}
