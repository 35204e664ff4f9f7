/// A file whose When was stepped to GPS time during recording (docs/GPS.md): the system
/// clock was wrong (no network, no RTC) until GPS time was known, so its IMU rows before
/// the first corrected When carry the wrong clock. They are placed by the recorded step,
/// so the recording reads as the continuous time it was and not as two pieces years apart
/// with a "gap" between them (the summary, the exports and the web page do this). `L` rows
/// always carry GPS time and are never moved. The file itself is not changed.
public struct ClockStep: Sendable, Equatable {
    /// The first IMU When after the step (already GPS time).
    public let firstCorrectedWhen: Double
    /// Seconds the IMU rows before it are behind GPS time.
    public let seconds: Double

    /// The step a file's metadata records; nil when there was none (or the metadata predates
    /// `firstStepSeconds`, or When is relative, which a step does not move).
    public init?(_ meta: RecordingMetadata?) {
        guard let meta, meta.recording.whenMode == .epoch, let t = meta.counters.time, t.steps > 0,
              let first = t.firstCorrectedWhen, let step = t.firstStepSeconds,
              first.isFinite, step.isFinite, step > 0 else { return nil }
        firstCorrectedWhen = first
        seconds = step
    }

    public init(firstCorrectedWhen: Double, seconds: Double) {
        self.firstCorrectedWhen = firstCorrectedWhen
        self.seconds = seconds
    }

    /// Whether a row of `source` at `when` was stamped before the step.
    @inline(__always)
    public func isBefore(_ source: Source, _ when: Double) -> Bool {
        source != .location && when < firstCorrectedWhen
    }

    /// The time of a row of `source` stamped `when`: placed by the step if it was before it.
    @inline(__always)
    public func place(_ source: Source, _ when: Double) -> Double {
        isBefore(source, when) ? when + seconds : when
    }
}

extension ClockStep {
    /// The steps of the recordings among files with metadata `metas` (in file order), and
    /// for each file the index of its recording's step. A step recorded by any file of a
    /// recording applies to all of its files: one closed by rotation before GPS time was
    /// known has the wrong clock throughout.
    public static func assign(_ metas: [RecordingMetadata?]) -> (steps: [ClockStep], perFile: [Int?]) {
        var steps: [ClockStep] = []
        var index: [String: Int] = [:]
        for m in metas.compactMap({ $0 }) where index[m.recording.id] == nil {
            if let step = ClockStep(m) {
                index[m.recording.id] = steps.count
                steps.append(step)
            }
        }
        return (steps, metas.map { m in m.flatMap { index[$0.recording.id] } })
    }
}

extension RecordingMetadata {
    /// Unix time of the file's first row: its first When (made absolute for relative
    /// When), placed by the file's clock step where its IMU rows carried a wrong clock; nil
    /// when the metadata does not say (no rows yet). What orders files in time, whatever
    /// their names say (local times: a daylight-saving fall-back or a journey across zones
    /// puts a later file's name first).
    public var firstRowEpoch: Double? {
        file.firstWhen.map { placedByStep(recording.whenMode == .relative ? recording.startEpoch + $0 : $0) }
    }

    /// An IMU time of this file placed by its clock step (unchanged without one).
    public func placedByStep(_ when: Double) -> Double {
        let hasIMU = recording.sources.contains { Source(letter: $0).map { $0 != .location } == true }
        guard hasIMU, let step = ClockStep(self) else { return when }
        return step.place(.accelerometer, when)
    }
}
