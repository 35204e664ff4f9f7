import Logging
import MotionCore

/// Power-loss recovery at the start of `record`, of `daemon` and of each of the daemon's
/// recordings: repairs the recordings of the output folder that did not end cleanly (and
/// are not being written: their writer's lock is left alone), and says what it did.
enum StartupRecovery {
    @discardableResult
    static func run(folder: String, log: Logger) -> RecoveryReport {
        let report = RecordingRecovery.recover(folder: folder, softwareVersion: MotionLogCommand.version)
        for f in report.recovered {
            let what = f.unreadableMetadataKeptAs == nil ? "recovered an unfinished recording" : "rebuilt the metadata of a recording that could not be read"
            log.notice("\(what): \(f)", metadata: ["folder": "\(folder)"])
        }
        for f in report.failures {
            log.warning("could not recover \(f)")
        }
        for name in report.inUse {
            log.info("\(name) is being written by another recording; left alone", metadata: ["folder": "\(folder)"])
        }
        return report
    }
}
